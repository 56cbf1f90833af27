import { spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { checkCompilerInputs, quote, RecordError, readRequest } from '../../src/compiler/index.js';
import { runs } from '../helpers/arbitrary.js';
import { ALL_BAD_INPUTS, badInputCounts, CLASSES, type Places, REPEATED } from '../helpers/bad-inputs.js';
import { cli, corpusCopy } from '../helpers/cli.js';
import { CORPUS_DIR, ROOT } from '../helpers/corpus.js';
import { counted, figureRow, n } from '../helpers/figures.js';
import { tempDir } from '../helpers/temp.js';

const tmp = tempDir('bad-classes');
const places: Places = { tmp, corpus: path.join(tmp, 'corpus'), run: path.join(tmp, 'run') };
/** The small corpus's study into the run folder the bad inputs must leave alone. */
const studyDump = (...extra: string[]) =>
  cli('study', '--corpus', places.corpus, '--strategies', 'dump', '--out', places.run, '--quiet', ...extra);

/** A path's bytes, a folder's every file with its name: equal before and after means untouched. */
function digest(p: string): string {
  const h = crypto.createHash('sha256');
  const stack = [p];
  for (let f = stack.pop(); f !== undefined; f = stack.pop()) {
    const s = fs.lstatSync(f);
    h.update(`${path.relative(p, f)}\0`);
    if (s.isDirectory())
      stack.push(
        ...fs
          .readdirSync(f)
          .sort()
          .reverse()
          .map((n) => path.join(f, n)),
      );
    else if (s.isFile()) h.update(fs.readFileSync(f));
  }
  return h.digest('hex');
}

/** Files a half-done write would leave: `<out>.partial` folders and `<file>.<pid>.tmp` files. */
const leftovers = (dir: string): string[] =>
  fs
    .readdirSync(dir, { recursive: true })
    .map(String)
    .filter((f) => /\.partial$|\.\d+\.tmp$/.test(f));

beforeAll(async () => {
  corpusCopy(tmp, 'corpus', (d) => {
    // One case: the run folder the read-back cases need is three compilations.
    for (const f of fs.readdirSync(d))
      if (/\.(request|candidates)\.json$/.test(f) && !f.startsWith('budget-slack.'))
        fs.rmSync(path.join(d, f));
    for (const f of fs.readdirSync(path.join(d, 'ledger')))
      if (!f.startsWith('budget-slack.')) fs.rmSync(path.join(d, 'ledger', f));
    const m = JSON.parse(fs.readFileSync(path.join(d, 'manifest.json'), 'utf8')) as Record<string, unknown>;
    for (const [k, v] of Object.entries(m))
      if (Array.isArray(v)) m[k] = v.filter((x) => x === 'budget-slack');
      else if (typeof v === 'object' && v !== null && 'budget-slack' in v)
        m[k] = { 'budget-slack': (v as Record<string, unknown>)['budget-slack'] };
    fs.writeFileSync(path.join(d, 'manifest.json'), JSON.stringify(m));
  });
  const made = await studyDump();
  expect(made.code, made.stderr).toBe(0);
});

describe('every bad input: exit 2, one line naming the file or option and the field, nothing left behind', () => {
  it.each(ALL_BAD_INPUTS.map((b) => [`${b.class}: ${b.what}`, b] as const))('%s', async (_, bad) => {
    const c = bad.make(places);
    const before = new Map((c.untouched ?? []).map((p) => [p, digest(p)]));
    const r = await cli(...c.args);
    expect(r.code, r.stderr).toBe(2);
    const lines = r.stderr.trimEnd().split('\n');
    expect(lines, r.stderr).toHaveLength(1);
    for (const n of c.names) expect(lines[0]).toContain(n);
    expect(lines[0]).not.toContain('internal error');
    for (const p of c.absent ?? []) expect(fs.existsSync(p), p).toBe(false);
    for (const [p, d] of before) expect(digest(p), p).toBe(d);
    expect(leftovers(tmp)).toEqual([]);
  });

  it('holds a repeated option for every command `ctxbench --help` lists', async () => {
    const all = (await cli('--help')).stdout;
    const help = all.slice(all.indexOf('Commands:'), all.indexOf('Options:'));
    const listed = [...help.matchAll(/^ {2}ctxbench (\w+)/gm)].map((m) => m[1]);
    expect(listed.length).toBeGreaterThan(10);
    expect(Object.keys(REPEATED).sort()).toEqual([...listed].sort());
  });

  it('counts every class, each tried at least three times', () => {
    const counts = badInputCounts();
    expect(Object.keys(counts)).toEqual([...CLASSES]);
    for (const c of CLASSES) expect(counts[c], c).toBeGreaterThanOrEqual(3);
    const total = Object.values(counts).reduce((a, b) => a + b, 0);
    figureRow(
      'bad inputs',
      'test/cli/bad-input-classes.test.ts',
      `${n(total)} inputs, each stopped with exit 2 and one line naming the file or option and the field, nothing left behind: ${counted(counts)}`,
    );
  });

  it('lets the default output under runs/ and a generated corpus be replaced as before', async () => {
    const g = path.join(tmp, 'generated');
    for (const extra of [[], ['--force']]) {
      const r = await cli(
        'generate',
        '--seed',
        'g',
        '--candidates',
        '6',
        '--cases',
        '1',
        '--out',
        g,
        '--quiet',
        ...extra,
      );
      expect(r.code, r.stderr).toBe(0);
    }
    const again = await studyDump('--force');
    expect(again.code, again.stderr).toBe(0);
  });
});

describe('the library refuses what the CLI refuses', () => {
  it('a budget past 2^53 - 1, and a pool whose token counts sum past it', () => {
    const request = JSON.parse(fs.readFileSync(path.join(CORPUS_DIR, 'budget-slack.request.json'), 'utf8'));
    expect(() => readRequest({ ...request, usable_token_budget: 2 ** 53 })).toThrow(RecordError);
    expect(readRequest({ ...request, usable_token_budget: 2 ** 53 - 1 }).usable_token_budget).toBe(
      2 ** 53 - 1,
    );
    const r = readRequest(request);
    const c = (id: string, token_count: number) =>
      ({
        candidate_id: id,
        token_count,
        depends_on: [],
        requirement: 'DISCRETIONARY',
        group_id: null,
      }) as never;
    expect(() => checkCompilerInputs(r, [c('a', 2 ** 52), c('b', 2 ** 52)], {} as never)).toThrow(
      /sum past 2\^53/,
    );
  });

  it('quote() names a value it cannot print: nested past the call stack, or a cycle', () => {
    let deep: unknown[] = [];
    for (let k = 0; k < 100_000; k++) deep = [deep];
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    expect(quote(deep)).toBe('[…]');
    expect(quote(cycle)).toBe('{…}');
    expect(quote([1, 2])).toBe('[1,2]');
  });
});

describe('a huge list of the wrong kind stops at its first element, in bounded memory', () => {
  // 25 million numbers (50 MB) took 171 s and then exhausted the heap. The child gets a heap far
  // too small for one message per element (about 200 bytes each): keeping them all runs out of
  // memory, however fast the machine; stopping at the first fits easily.
  const count = runs(1_000_000, 25_000_000);
  const heapMb = runs(64, 512);
  it(`${count} numbers as candidates, under --max-old-space-size=${heapMb}`, () => {
    const file = path.join(tmp, 'huge.json');
    const fd = fs.openSync(file, 'w');
    fs.writeSync(fd, '{"candidates": [1');
    const chunk = ',1'.repeat(100_000);
    for (let k = 1; k < count; k += 100_000)
      fs.writeSync(fd, k + 100_000 <= count ? chunk : ',1'.repeat(count - k));
    fs.writeSync(fd, ']}');
    fs.closeSync(fd);
    const out = path.join(tmp, 'huge-out.json');
    const r = spawnSync(
      process.execPath,
      [
        `--max-old-space-size=${heapMb}`,
        path.join(ROOT, 'bin/ctxbench.js'),
        'compile',
        '--request',
        path.join(CORPUS_DIR, 'budget-slack.request.json'),
        '--candidates',
        file,
        '--policy',
        path.join(CORPUS_DIR, 'compiler-policy-v1.json'),
        '--output',
        out,
      ],
      { encoding: 'utf8' },
    );
    expect(r.status, r.stderr.slice(0, 500)).toBe(2);
    expect(r.stderr.trimEnd().split('\n')).toEqual([
      `ctxbench: ${file}: candidates[0]: invalid candidate: 1 (need an object)`,
    ]);
    expect(fs.existsSync(out)).toBe(false);
  });
});
