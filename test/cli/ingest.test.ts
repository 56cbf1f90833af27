import fs from 'node:fs';
import path from 'node:path';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import type { ContextCandidate } from '../../src/compiler/index.js';
import { cli } from '../helpers/cli.js';
import { folderBytes, poolOf } from '../helpers/corpus-files.js';
import { git, initRepository, makeRepository, shallowClone } from '../helpers/git-fixture.js';
import { ELIGIBLE, MAX_BYTES, MESSAGES, makeProject } from '../helpers/ingest-fixture.js';
import { tempDir } from '../helpers/temp.js';

// The process boundary is not what this file is about: strategies answer in this thread.
vi.mock('../../src/harness/hosts/hosts.js', () => import('../helpers/in-thread-hosts.js'));

interface Truth {
  readonly identity_truth: Record<string, { eval_class: string; min_representation: string }>;
}

const tmp = fs.realpathSync(tempDir('ingest'));
const repo = path.join(tmp, 'repo');
const corpus = path.join(tmp, 'a', 'corpus');
const BUDGETS = '150,1000,8000';
const GRAMMAR_EXT = /\.(ts|tsx|js|py|go|rs)$/;
const SKIPPED_PATHS = new Set(['package-lock.json', 'assets/logo.png', 'docs/latin1.txt', 'data/big.txt']);

let shas: string[];
let before: { status: string; head: string };
const ingestArgs = (out: string, ...more: string[]) => [
  'ingest',
  repo,
  '--out',
  out,
  '--max-bytes',
  String(MAX_BYTES),
  '--budgets',
  BUDGETS,
  '--quiet',
  ...more,
];
const caseName = (i: number): string => `c${String(i).padStart(2, '0')}-${(shas[i] as string).slice(0, 10)}`;
const readJson = (file: string): unknown => JSON.parse(fs.readFileSync(file, 'utf8'));
const candidatesOf = (dir: string, kase: string): ContextCandidate[] => poolOf<ContextCandidate>(dir, kase);
const repoState = () => ({
  status: git(repo, ['status', '--porcelain', '--ignored']),
  head: git(repo, ['rev-parse', 'HEAD']),
});

beforeAll(async () => {
  shas = makeProject(repo);
  before = repoState();
  const r = await cli(...ingestArgs(corpus));
  expect([r.code, r.stderr]).toEqual([0, '']);
}, 30_000);

describe('ingest of a scripted history', () => {
  it('writes a corpus that check accepts and study runs on', async () => {
    const check = await cli('check', corpus);
    expect([check.code, check.stdout]).toEqual([
      0,
      `check: ${ELIGIBLE.size} cases, 0 problems, 0 warnings\n`,
    ]);
    const run = path.join(tmp, 'run');
    const study = await cli(
      'study',
      '--corpus',
      corpus,
      '--strategies',
      'compiler-v2,oracle,topk',
      '--out',
      run,
      '--quiet',
    );
    expect(study.code).toBe(0);
    const rows = fs
      .readFileSync(path.join(run, 'rows.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { case: string; budget: string; strategy: string; must_recall: number });
    expect(rows).toHaveLength(ELIGIBLE.size * 3 * 3);
    // The oracle reads the ledger: whenever the budget holds every must file in full, it has them all.
    const oracle = rows.filter((x) => x.strategy === 'oracle' && x.budget !== 'tight');
    expect(oracle).toHaveLength(ELIGIBLE.size * 2);
    for (const row of oracle)
      expect([row.case, row.budget, row.must_recall]).toEqual([row.case, row.budget, 1]);
    // At 150 tokens the one case with three must files (about 190 tokens in full) cannot hold them.
    const tight = rows.filter((x) => x.strategy === 'oracle' && x.budget === 'tight');
    for (const row of tight)
      if (row.case !== caseName(10)) expect([row.case, row.must_recall]).toEqual([row.case, 1]);
  }, 30_000);

  it('makes a case of exactly the eligible commits, and counts the others by reason', () => {
    const manifest = readJson(path.join(corpus, 'manifest.json')) as {
      fixtures: string[];
      ingest: {
        skipped_commits: Record<string, number>;
        skipped_files: Record<string, number>;
        history: number;
      };
    };
    expect(manifest.fixtures).toEqual([...ELIGIBLE.keys()].map(caseName));
    expect(manifest.ingest.history).toBe(MESSAGES.length);
    expect(manifest.ingest.skipped_commits).toEqual({
      'dependency-bump': 1, // 4
      merge: 1, // 9
      'nothing-at-parent': 1, // 5
      root: 1, // 0
      'too-few-source-files': 1, // 8
    });
    // The lockfile had two versions among the cases' parents (before and after the bump, 4).
    expect(manifest.ingest.skipped_files).toEqual({ binary: 1, lockfile: 2, 'not-utf8': 1, 'too-large': 1 });
  });

  it("gives each case the ledger the commit's changes call for", () => {
    for (const [i, { must, should }] of ELIGIBLE) {
      const truth = readJson(path.join(corpus, 'ledger', `${caseName(i)}.truth.json`)) as Truth;
      const expected: Truth['identity_truth'] = {
        'dist/index.js': { eval_class: 'distractor', min_representation: 'full' },
        'vendor/lib/helper.js': { eval_class: 'distractor', min_representation: 'full' },
        // The task is the question, not content to find: it is in no class (optional).
      };
      for (const p of must) expected[p] = { eval_class: 'must', min_representation: 'full' };
      for (const p of should) expected[p] = { eval_class: 'should', min_representation: 'full' };
      expect([i, truth.identity_truth]).toEqual([i, expected]);
    }
  });

  it("holds the parent's files as they were there, in the forms their language allows", () => {
    for (const i of ELIGIBLE.keys()) {
      const kase = caseName(i);
      const parent = git(repo, ['rev-parse', `${shas[i]}^`]);
      const candidates = candidatesOf(corpus, kase);
      const task = candidates.find((c) => c.candidate_id === 'task');
      expect(task?.content).toBe(MESSAGES[i]);
      const files = git(repo, ['ls-tree', '-r', '--name-only', parent])
        .split('\n')
        .filter((p) => !SKIPPED_PATHS.has(p));
      const identities = [...new Set(candidates.map((c) => c.content_identity))].filter((p) => p !== 'task');
      expect([kase, identities]).toEqual([kase, files]);
      for (const p of files) {
        const forms = candidates.filter((c) => c.content_identity === p);
        expect([p, forms.map((c) => c.representation_id)]).toEqual([
          p,
          GRAMMAR_EXT.test(p) ? ['full', 'outline', 'reference'] : ['full', 'reference'],
        ]);
        // The text as it was at the parent: for every file of the branch's case and the last one
        // (one git call a file is slow), and for the must files everywhere.
        if (i === 7 || i === 11 || ELIGIBLE.get(i)?.must.includes(p)) {
          const text = git(repo, ['show', `${parent}:${p}`]);
          expect(forms[0]?.content).toBe(`File: ${p}\n${text}`);
        }
        const withheld = p.startsWith('vendor/') || p.startsWith('dist/');
        for (const c of forms)
          expect([c.candidate_id, c.authority_eligible]).toEqual([c.candidate_id, !withheld]);
      }
      for (const c of candidates)
        expect([c.candidate_id, c.token_count]).toEqual([c.candidate_id, countTokens(c.content)]);
    }
    // What a commit added is not in its own pool: the renamed file by its new name, the new module.
    const ids = (i: number) => new Set(candidatesOf(corpus, caseName(i)).map((c) => c.content_identity));
    expect(ids(6).has('geo/geo.go')).toBe(true);
    expect(ids(6).has('geo/geometry.go')).toBe(false);
    expect(ids(10).has('src/errors.ts')).toBe(false);
    expect(ids(11).has('src/errors.ts')).toBe(true);
    // The branch's commit sees its own parent, not main's later rebuild of dist/.
    const dist7 = candidatesOf(corpus, caseName(7)).find((c) => c.candidate_id === 'dist/index.js#full');
    expect(dist7?.content).not.toContain('// rebuilt');
  });

  it('ranks a file the message names by its path at or near the top of the pool', () => {
    for (const [i, p] of [
      [1, 'src/util.ts'],
      [11, 'geo/geometry.go'],
    ] as const) {
      const files = candidatesOf(corpus, caseName(i)).filter(
        (c) => c.representation_id === 'full' && c.candidate_id !== 'task',
      );
      const named = files.find((c) => c.content_identity === p)?.relevance ?? -1;
      expect(named).toBeGreaterThan(0);
      // Fewer than three files above it: it is the best or among the best three.
      const above = files.filter((c) => c.relevance > named).map((c) => c.content_identity);
      expect(above.length, `${p} below ${above.join(', ')}`).toBeLessThan(3);
    }
  });
});

describe('ingest is deterministic', () => {
  it('writes the same bytes twice, and samples by --seed', async () => {
    const again = path.join(tmp, 'b', 'corpus');
    expect((await cli(...ingestArgs(again))).code).toBe(0);
    const first = folderBytes(corpus);
    const second = folderBytes(again);
    expect([...second.keys()]).toEqual([...first.keys()]);
    for (const [f, bytes] of first) expect([f, second.get(f)?.equals(bytes)]).toEqual([f, true]);

    let n = 0;
    const sample = async (seed: string) => {
      const out = path.join(tmp, `seed-${n++}`, 'corpus');
      const r = await cli(...ingestArgs(out, '--commits', '3', '--seed', seed));
      expect([r.code, r.stderr]).toEqual([0, '']);
      return (readJson(path.join(out, 'manifest.json')) as { fixtures: string[] }).fixtures;
    };
    const a = await sample('one');
    const b = await sample('two');
    const eligible = [...ELIGIBLE.keys()].map(caseName);
    for (const s of [a, b]) {
      expect(s).toHaveLength(3);
      for (const k of s) expect(eligible).toContain(k);
    }
    expect(b).not.toEqual(a);
    expect(await sample('one')).toEqual(a);
  }, 30_000);
});

describe('ingest refuses bad input', () => {
  const refused = async (dir: string, cause: RegExp) => {
    const out = path.join(tmp, 'refused');
    const r = await cli('ingest', dir, '--out', out, '--quiet');
    expect(r.code).toBe(2);
    const lines = r.stderr.trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(dir);
    expect(lines[0]).toMatch(cause);
    expect(fs.existsSync(out)).toBe(false);
  };

  it('a file, a plain folder, a shallow clone, an empty repository, no case: one line each, exit 2', async () => {
    const file = path.join(tmp, 'file.txt');
    fs.writeFileSync(file, 'x\n');
    await refused(file, /not a folder/);
    const plain = path.join(tmp, 'plain');
    fs.mkdirSync(plain);
    await refused(plain, /not a git repository/);
    await refused(shallowClone(repo, path.join(tmp, 'shallow')), /shallow clone/);
    await refused(initRepository(path.join(tmp, 'empty')), /no commits/);
    const rootOnly = path.join(tmp, 'root-only');
    makeRepository(rootOnly, [{ write: 'a.ts', content: 'export const a = 1;\n' }, { commit: 'root' }]);
    await refused(rootOnly, /no commit makes a case \(1 commit; skipped: root 1\)/);
  });

  it('bad --budgets and --commits are usage errors', async () => {
    const out = path.join(tmp, 'usage');
    for (const [flag, value, said] of [
      ['--budgets', '1,2', /--budgets/],
      ['--commits', '0', /--commits/],
    ] as const) {
      const r = await cli('ingest', repo, '--out', out, flag, value);
      expect([flag, r.code]).toEqual([flag, 2]);
      expect(r.stderr).toMatch(said);
      expect(fs.existsSync(out)).toBe(false);
    }
  });

  it('--force replaces a corpus ingest wrote, and nothing else', async () => {
    const out = path.join(tmp, 'forced', 'corpus');
    expect((await cli(...ingestArgs(out, '--commits', '1'))).code).toBe(0);
    const notEmpty = await cli(...ingestArgs(out));
    expect(notEmpty.code).toBe(2);
    expect(notEmpty.stderr).toMatch(/--force/);
    expect((await cli(...ingestArgs(out, '--force'))).code).toBe(0);
    expect((readJson(path.join(out, 'manifest.json')) as { fixtures: string[] }).fixtures).toHaveLength(
      ELIGIBLE.size,
    );

    // A folder of the user's, and a run folder (its manifest is not an ingest's): left alone.
    const mine = path.join(tmp, 'mine');
    fs.mkdirSync(mine);
    fs.writeFileSync(path.join(mine, 'notes.txt'), 'keep\n');
    const run = path.join(tmp, 'run');
    const runManifest = fs.readFileSync(path.join(run, 'manifest.json'));
    for (const dir of [mine, run]) {
      const r = await cli(...ingestArgs(dir, '--force'));
      expect([dir, r.code]).toEqual([dir, 2]);
    }
    expect(fs.readFileSync(path.join(mine, 'notes.txt'), 'utf8')).toBe('keep\n');
    expect(fs.readFileSync(path.join(run, 'manifest.json')).equals(runManifest)).toBe(true);
  }, 30_000);
});

describe('a commit whose changed files cannot be read', () => {
  it('is no case: a non-UTF-8 or oversized must file is not in the pool', async () => {
    const small = path.join(tmp, 'unreadable');
    const latin = (word: string) => Buffer.from(`# caf\xe9 ${word}\ndef f():\n    pass\n`, 'latin1');
    const shas = makeRepository(small, [
      { write: 'src/legacy.py', content: latin('one') },
      { write: 'src/big.ts', content: `export const x = '${'y'.repeat(MAX_BYTES)}';\n` },
      { write: 'src/ok.ts', content: 'export const a = 1;\n' },
      { commit: 'root' }, // 0
      { write: 'src/legacy.py', content: latin('two') },
      { commit: 'change the legacy module' }, // 1: its one must file is not UTF-8
      { write: 'src/big.ts', content: `export const x = '${'z'.repeat(MAX_BYTES)}';\n` },
      { commit: 'change the big module' }, // 2: its one must file is too large
      { write: 'src/ok.ts', content: 'export const a = 2;\n' },
      { commit: 'change ok' }, // 3: a case
    ]);
    const out = path.join(tmp, 'unreadable-corpus');
    const r = await cli('ingest', small, '--out', out, '--max-bytes', String(MAX_BYTES), '--quiet');
    expect(r.code).toBe(0);
    const manifest = readJson(path.join(out, 'manifest.json')) as {
      fixtures: string[];
      ingest: { skipped_commits: Record<string, number>; skipped_files: Record<string, number> };
    };
    expect(manifest.fixtures).toEqual([`c3-${(shas[3] as string).slice(0, 10)}`]);
    expect(manifest.ingest.skipped_commits).toEqual({ 'must-not-in-pool': 2, root: 1 });
    // legacy.py's first version (parent of 1) and second (parents of 2 and 3); big.ts's first (1, 2)
    // and second (3).
    expect(manifest.ingest.skipped_files).toEqual({ 'not-utf8': 2, 'too-large': 2 });
  });
});

describe('a commit whose message is longer than a task may be', () => {
  it('is skipped and counted, and the other commits are cases as before', async () => {
    const dir = path.join(tmp, 'long-message');
    const shas = makeRepository(dir, [
      { write: 'src/a.ts', content: 'export const a = 1;\n' },
      { commit: 'root' }, // 0
      { write: 'src/a.ts', content: 'export const a = 2;\n' },
      { commit: 'change a' }, // 1: a case
    ]);
    // 2: a million characters of body after its subject; through stdin, longer than an argument may be.
    fs.writeFileSync(path.join(dir, 'src/a.ts'), 'export const a = 3;\n');
    git(dir, ['add', 'src/a.ts']);
    git(dir, ['commit', '-q', '-F', '-'], {}, Buffer.from(`change a again\n\n${'word '.repeat(200_000)}`));
    const out = path.join(tmp, 'long-message-corpus');
    const r = await cli('ingest', dir, '--out', out, '--quiet');
    expect([r.code, r.stderr]).toEqual([0, '']);
    expect(r.stdout).toContain('commits skipped: root 1, task-too-long 1');
    const manifest = readJson(path.join(out, 'manifest.json')) as {
      fixtures: string[];
      ingest: { skipped_commits: Record<string, number> };
    };
    expect(manifest.fixtures).toEqual([`c1-${(shas[1] as string).slice(0, 10)}`]);
    expect(manifest.ingest.skipped_commits).toEqual({ root: 1, 'task-too-long': 1 });
  }, 60_000);
});

describe('the repository', () => {
  it('is untouched: the same status and HEAD after every ingest', () => {
    expect(repoState()).toEqual(before);
    expect(before.status).toBe('');
  });
});
