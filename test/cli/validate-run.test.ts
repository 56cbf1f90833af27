/**
 * `validate <run-folder>` and `study --resume` against a run folder edited after the run: every
 * edit of test/helpers/run-edits.ts is named at its file and line (exit 1), an untouched folder
 * is valid (the reference study, and a run holding a hostile strategy's error row, which recurs
 * when asked again), inputs that are gone or changed are refused (exit 2, one line), and a kept
 * row edited in `.partial` stops `--resume` with its line named and the partial folder as it was.
 * An error row that says its strategy timed out is never taken as valid: `validate` says it
 * cannot re-check it, and `--resume` asks its cell again. Strategies answer in this thread here
 * (test/cli/validate-rerun.test.ts asks them in processes of their own).
 */
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import type { InputError } from '../../src/harness/errors.js';
import { loadStrategies } from '../../src/harness/hosts/index.js';
import { checkRunFolder } from '../../src/harness/study/index.js';
import type { Corpus, Strategy } from '../../src/harness/types.js';
import { runs } from '../helpers/arbitrary.js';
import { cli, corpusCopy } from '../helpers/cli.js';
import { corpusFolder, corpus as referenceCorpus } from '../helpers/corpus.js';
import { figureRow, n } from '../helpers/figures.js';
import {
  type Edited,
  FOLDER_EDITS,
  forgeError,
  names,
  PARTIAL_EDITS,
  restateError,
  runFolderFigures,
} from '../helpers/run-edits.js';
import { study } from '../helpers/study.js';
import { tempDir } from '../helpers/temp.js';

/** One thing `validate <run-folder>` found: its file, line and what differs. */
type Disagreement = Awaited<ReturnType<typeof checkRunFolder>>['found'][number];

// The process boundary is not what this file is about: the CLI's strategies answer in this thread.
vi.mock('../../src/harness/hosts/hosts.js', () => import('../helpers/in-thread-hosts.js'));

const tmp = tempDir('validate-run');

/** A strategy that fails with a message written to break a reader: an error row. */
const hostile: Strategy = {
  name: 'hostile',
  description: 'throws a message with a newline, a fake row and a fake separator',
  assemble: () => {
    throw new Error('boom"}\n{"case":"x","status_correct":true}\r\n---');
  },
};

/** The reference corpus cut to its first `n` cases, its ledger inside: a run folder to edit. */
function smallCorpus(n: number): Corpus {
  const keep = referenceCorpus()
    .cases.slice(0, n)
    .map((c) => c.name);
  const dir = corpusCopy(tmp, `corpus-${n}`, (d) => {
    const drop = (f: string) => !keep.some((k) => f.startsWith(`${k}.`));
    for (const f of fs.readdirSync(d))
      if (/\.(request|candidates)\.json$/.test(f) && drop(f)) fs.rmSync(path.join(d, f));
    for (const f of fs.readdirSync(path.join(d, 'ledger'))) if (drop(f)) fs.rmSync(path.join(d, 'ledger', f));
    const file = path.join(d, 'manifest.json');
    const m = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>;
    for (const [key, value] of Object.entries(m)) {
      if (Array.isArray(value)) m[key] = value.filter((v) => keep.includes(v));
      else if (typeof value === 'object' && value !== null)
        m[key] = Object.fromEntries(Object.entries(value).filter(([k]) => keep.includes(k)));
    }
    fs.writeFileSync(file, JSON.stringify(m));
  });
  return corpusFolder(dir).corpus;
}

// Three cases by default (36 cells: each check a fraction of a second), every case under test:full.
const CASES = runs(3, 14);
let small: Corpus;
let strategies: Strategy[];
/** Every edit tried once, on a run folder and a stopped run of `small` (both untouched here). */
let figures: Awaited<ReturnType<typeof runFolderFigures>>;
let run = '';

beforeAll(async () => {
  small = smallCorpus(CASES);
  // The strategies whose extras their inputs decide come after `hostile`, whose place a test names.
  strategies = [
    ...(await loadStrategies(['dump', 'compiler', 'oracle'])),
    hostile,
    ...(await loadStrategies(['compiler-strict', 'compiler-v2', 'exact', 'tiered'])),
  ];
  figures = await runFolderFigures(small, strategies, tmp);
  run = figures.run;
});

describe('validate <run-folder> on untouched runs', () => {
  it('the reference study is valid', async () => {
    const dir = path.join(tmp, 'reference');
    const out = await study({ strategies: await loadStrategies(), out: dir });
    expect(out.state).toBe('finished');
    const r = await cli('validate', dir);
    expect(r.stdout).toBe('valid\n');
    expect(r.code).toBe(0);
  });

  it('a run with a hostile error row is valid: asked again, the strategy fails with the same message', async () => {
    const rows = fs.readFileSync(path.join(run, 'rows.jsonl'), 'utf8');
    expect(rows).toMatch(/"strategy":"hostile","success":false,"reason":"STRATEGY_ERROR"/);
    expect(await checkRunFolder(run, { in: 'thread', strategies })).toEqual({ found: [], unchecked: [] });
  });

  it('a strategy the manifest names that is not here: exit 2, one line, for the run cannot be re-derived', async () => {
    const r = await cli('validate', run);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/manifest\.json: strategies\[3\]: no strategy "hostile" here/);
  });
});

describe('an error row is asked again (issue 33)', () => {
  /** A run of registered strategies, its reports written again by `ctxbench report`. */
  const registered = async (name: string) => {
    const dir = path.join(tmp, name);
    await study({ corpus: small, strategies: await loadStrategies(['dump', 'topk']), out: dir });
    return dir;
  };

  it('a topk success forged into an error row, reports written again, is named at its line (exit 1)', async () => {
    const dir = await registered('forged-topk');
    const { line } = forgeError(dir, 'topk');
    expect((await cli('report', dir)).code).toBe(0);
    const r = await cli('validate', dir);
    expect([r.code, r.stderr]).toEqual([1, '']);
    expect(r.stdout).toBe(
      `INVALID rows.jsonl:${line}: an error row ("topk threw: Error: boom"), but topk answers with a bundle when asked this cell again\n`,
    );
  });

  it('an error row that says its strategy timed out is not re-checkable: UNCHECKED, exit 1, never valid', async () => {
    const dir = path.join(tmp, 'timed-out');
    fs.cpSync(run, dir, { recursive: true });
    const message = 'hostile timed out: no answer within 1000 ms, its process was stopped';
    const k = restateError(path.join(dir, 'rows.jsonl'), message);
    await cli('report', dir);
    const { found, unchecked } = await checkRunFolder(dir, { in: 'thread', strategies });
    expect(found).toEqual([]);
    expect(unchecked).toEqual([
      {
        file: 'rows.jsonl',
        line: k + 1,
        text: 'an error row ("hostile timed out: no answer within 1000 ms, its process was stopped"): a timeout cannot be re-checked, as it depends on the machine and its load',
      },
    ]);
  });

  it('a kept error row that says its strategy timed out is asked again by --resume, not kept', async () => {
    const out = path.join(tmp, 'resumed-timeout');
    fs.cpSync(`${figures.stopped}.partial`, `${out}.partial`, { recursive: true });
    const k = restateError(
      path.join(`${out}.partial`, 'rows.jsonl'),
      'hostile ran out of memory (its heap is 64 MiB)',
    );
    let kept = -1;
    const done = await study({ corpus: small, strategies, out, resume: true, onStart: (n) => (kept = n) });
    expect(done.state).toBe('finished');
    expect(kept).toBe(k);
    for (const f of ['rows.jsonl', 'compilations.jsonl', 'summary.json'])
      expect(fs.readFileSync(path.join(out, f), 'utf8'), f).toBe(fs.readFileSync(path.join(run, f), 'utf8'));
  });
});

describe('validate <run-folder> names the first file and line an edit changed', () => {
  for (const name of Object.keys(FOLDER_EDITS)) {
    it(name, async () => {
      const { edited, found, unchecked } = figures.folder.get(name) as {
        edited: Edited;
        found: readonly Disagreement[];
        unchecked: readonly Disagreement[];
      };
      const said = JSON.stringify(found);
      expect(unchecked).toEqual([]);
      if (edited.shownIn === undefined) {
        expect(found, said).toHaveLength(1);
        expect(found[0]).toMatchObject(edited);
      }
      expect(names(found, edited), said).toBe(true);
    });
  }

  it('the CLI prints the disagreement with its file and line, exit 1', async () => {
    const dir = path.join(tmp, 'cli-edit');
    await study({ corpus: small, strategies: await loadStrategies(['dump', 'oracle']), out: dir });
    expect(await cli('validate', dir)).toEqual({ code: 0, stdout: 'valid\n', stderr: '' });
    const file = path.join(dir, 'summary.json');
    const text = fs.readFileSync(file, 'utf8').split('\n');
    const k = text.findIndex((l) => /"correct": [1-9]/.test(l));
    text[k] = (text[k] as string).replace(/"correct": \d+/, '"correct": 0');
    fs.writeFileSync(file, text.join('\n'));
    const r = await cli('validate', dir);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe(
      `INVALID summary.json:${k + 1}: differs from the one rendered again from the rows\n`,
    );
  });
});

describe('validate <run-folder> of shards and of a merged run', () => {
  it('a shard is valid, its slice derived from its index and count; the merge of three is valid too', async () => {
    const shards = [1, 2, 3].map((i) => path.join(tmp, `shard-${i}`));
    for (const [k, out] of shards.entries()) {
      const r = await cli(
        'study',
        '--corpus',
        small.dir,
        '--strategies',
        'dump,oracle',
        '--shard',
        `${k + 1}/3`,
        '--out',
        out,
        '--quiet',
      );
      expect(r.code, r.stderr).toBe(0);
      expect(await cli('validate', out)).toEqual({ code: 0, stdout: 'valid\n', stderr: '' });
    }
    const merged = path.join(tmp, 'merged');
    expect((await cli('merge', ...shards, '--out', merged)).code).toBe(0);
    expect(await cli('validate', merged)).toEqual({ code: 0, stdout: 'valid\n', stderr: '' });
    const file = path.join(shards[1] as string, 'manifest.json');
    const text = fs.readFileSync(file, 'utf8').split('\n');
    const k = text.findIndex((l) => l.includes('"from": '));
    text[k] = (text[k] as string).replace(/\d+/, (x) => String(Number(x) + 1));
    fs.writeFileSync(file, text.join('\n'));
    const r = await cli('validate', shards[1] as string);
    expect([r.code, r.stdout]).toEqual([
      1,
      expect.stringMatching(
        new RegExp(`^INVALID manifest\\.json:${k + 1}: shard\\.from is \\d+, not \\d+: `),
      ),
    ]);
  });
});

describe('validate <run-folder> refuses what it cannot re-derive (exit 2, one line)', () => {
  const refused = async (dir: string, pattern: RegExp) => {
    const r = await cli('validate', dir);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(pattern);
  };

  it('a corpus changed since the run', async () => {
    const c = smallCorpus(1);
    const dir = path.join(tmp, 'changed-corpus');
    await study({ corpus: c, strategies, out: dir });
    const request = path.join(c.dir, `${c.cases[0]?.name}.request.json`);
    fs.appendFileSync(request, '\n');
    await refused(dir, /manifest\.json: corpus\.digest: .* has changed since the run/);
  });

  it('a ledger changed or gone', async () => {
    const c = smallCorpus(2);
    const dir = path.join(tmp, 'changed-ledger');
    await study({ corpus: c, strategies, out: dir });
    const ledger = path.join(c.dir, 'ledger');
    const truth = path.join(ledger, fs.readdirSync(ledger)[0] as string);
    fs.appendFileSync(truth, '\n');
    await refused(dir, /manifest\.json: ledger\.digest: .* has changed since the run/);
    fs.rmSync(ledger, { recursive: true });
    await refused(dir, /manifest\.json: ledger\.dir .* is gone/);
  });

  it('a stopped run (.partial) and a folder that is not a run', async () => {
    const dir = path.join(tmp, 'stopped-for-validate');
    expect((await study({ corpus: small, strategies, out: dir, stopAt: 5 })).state).toBe('stopped');
    await refused(`${dir}.partial`, /a partial run: finish it with `ctxbench study --resume`/);
    await refused(tmp, /no manifest\.json: not a run folder/);
  });

  it('no folder and no flags, or both: the usage names both forms', async () => {
    for (const args of [[], [run, '--compilation', 'c.json']]) {
      const r = await cli('validate', ...args);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/validate RUN_DIR\) or --compilation, --request, --candidates and --policy/);
    }
  });
});

describe('study --resume checks the rows it keeps', () => {
  for (const name of Object.keys(PARTIAL_EDITS)) {
    it(`${name}: refused with its line named, the partial folder as it was`, () => {
      const r = figures.partial.get(name) as { edited: Edited; error: InputError | null; untouched: boolean };
      expect(r.error?.line).toMatch(
        new RegExp(`\\.partial/${r.edited.file.replace('.', '\\.')}:${r.edited.line}: .*cannot resume`),
      );
      expect(r.untouched).toBe(true);
    });
  }

  it('an untouched partial run resumes into the folder of a run never stopped', async () => {
    const out = path.join(tmp, 'resumed-clean');
    fs.cpSync(`${figures.stopped}.partial`, `${out}.partial`, { recursive: true });
    expect((await study({ corpus: small, strategies, out, resume: true })).state).toBe('finished');
    for (const f of [
      'rows.jsonl',
      'compilations.jsonl',
      'summary.json',
      'report.md',
      'rows.csv',
      'report.html',
    ])
      expect(fs.readFileSync(path.join(out, f), 'utf8'), f).toBe(fs.readFileSync(path.join(run, f), 'utf8'));
  });
});

describe('the figures for docs/reliability.md', () => {
  it('every edit tried is caught', () => {
    const f = figures;
    console.log(`run-folder edits: ${f.caught} of ${f.tried} caught`);
    expect(f.tried).toBe(Object.keys(FOLDER_EDITS).length + Object.keys(PARTIAL_EDITS).length);
    expect(f.caught).toBe(f.tried);
    const partial = Object.keys(PARTIAL_EDITS).length;
    figureRow(
      'run-folder edits',
      'test/cli/validate-run.test.ts',
      `${n(f.caught)} of ${n(f.tried)} caught, each named at its file and line: ${n(f.tried - partial)} edits of a finished run (\`validate <run-folder>\`), ${n(partial)} of a stopped one (\`study --resume\`, the partial folder left as it was)`,
    );
  });
});
