import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { commits, openRepository } from '../../../src/harness/ingest/git/git.js';
import type { Commit } from '../../../src/harness/ingest/ingest-types.js';
import { TASK_LIMIT } from '../../../src/harness/ingest/ingested-corpus.js';
import { ineligibleReason, neededAtParent, selectCases } from '../../../src/harness/ingest/select.js';
import { makeRepository, type Step } from '../../helpers/git-fixture.js';
import { tempDir } from '../../helpers/temp.js';

const tmp = tempDir('select');

const writes = (files: readonly string[], content: string): Step[] =>
  files.map((f) => ({ write: f, content }));
const sources = (n: number, prefix: string): string[] =>
  Array.from({ length: n }, (_, i) => `src/${prefix}${i}.ts`);

describe('selectCases on a scripted history', () => {
  let history: Commit[];
  beforeAll(() => {
    const dir = path.join(tmp, 'repo');
    const shas = makeRepository(dir, [
      ...writes(['src/a.ts', 'src/b.ts'], 'one\n'),
      { commit: 'root' }, // 0: the root, no parent
      ...writes(['src/a.ts'], 'two\n'),
      { commit: 'change a' }, // 1: eligible
      ...writes(['package.json', 'package-lock.json'], '{}\n'),
      { commit: 'add a dependency' }, // 2: manifest and lockfile only
      ...writes(['src/a.ts'], 'three\n'),
      { commit: 'Bump lodash from 4.17.20 to 4.17.21' }, // 3: a bot's subject
      ...writes(sources(7, 'seven'), 'x\n'),
      { commit: 'seven files' }, // 4: one too many
      ...writes(sources(6, 'seven'), 'y\n'),
      { commit: 'six files' }, // 5: eligible, at the limit (six of those seven modified)
      ...writes(['README.md'], 'docs\n'),
      { commit: 'docs only' }, // 6: no source file
      { checkout: 'side', at: 6 },
      ...writes(['src/side.ts'], 'side\n'),
      { commit: 'on a branch' }, // 7: one source file, added: nothing at the parent
      { checkout: 'main' },
      ...writes(['src/b.ts'], 'two\n'),
      { commit: 'change b' }, // 8: eligible
      { merge: 'side', message: 'merge side' }, // 9: a merge
      ...writes(
        Array.from({ length: 50 }, (_, i) => `docs/page${i}.md`),
        'page\n',
      ),
      ...writes(['src/c.ts'], 'c\n'),
      { commit: 'a sweep of 51 paths' }, // 10: too many paths, one source file
      ...writes(['dist/bundle.js', 'vendor/x/y.go', 'yarn.lock'], 'built\n'),
      { commit: 'rebuild' }, // 11: generated, vendored and a lockfile: no source counted
      { rename: 'src/a.ts', to: 'lib/a.ts' },
      { commit: 'move a' }, // 12: eligible, src/a.ts at the parent
      ...writes(sources(7, 'seven'), 'z\n'),
      { commit: 'seven modified' }, // 13: one too many, each file there at the parent
    ]);
    history = commits(openRepository(dir));
    expect(history.map((c) => c.sha)).toEqual(shas);
  });

  it('counts each reason and keeps the eligible commits in history order', () => {
    const result = selectCases(history, { count: 100, seed: 's' });
    expect(result.selected).toEqual([1, 5, 8, 12]);
    expect(result.eligible).toBe(4);
    expect(result.skipped).toEqual({
      root: 1, // 0
      'dependency-bump': 2, // 2, 3
      'too-many-source-files': 2, // 4, 13
      'too-few-source-files': 2, // 6, 11
      merge: 1, // 9
      'too-many-paths': 1, // 10
      'nothing-at-parent': 1, // 7
    });
  });

  it('moves the bounds on the number of source files when asked', () => {
    const wide = selectCases(history, { count: 100, seed: 's', maxFiles: 7 });
    // 13 comes in; 4 passes the bound but only added its seven files.
    expect(wide.selected).toEqual([1, 5, 8, 12, 13]);
    expect(wide.skipped['too-many-source-files']).toBeUndefined();
    expect(wide.skipped['nothing-at-parent']).toBe(2);
    const narrow = selectCases(history, { count: 100, seed: 's', minFiles: 2 });
    expect(narrow.selected).toEqual([5]);
    // 1, 6, 7, 8, 11, 12: the side branch's one added file fails the count before its status.
    expect(narrow.skipped['too-few-source-files']).toBe(6);
    expect(narrow.skipped['nothing-at-parent']).toBeUndefined();
  });

  it('picks `count` of the eligible commits when there are more', () => {
    const result = selectCases(history, { count: 2, seed: 's' });
    expect(result.selected).toHaveLength(2);
    expect(result.eligible).toBe(4);
    for (const i of result.selected) expect([1, 5, 8, 12]).toContain(i);
    expect(selectCases(history, { count: 0, seed: 's' }).selected).toEqual([]);
  });
});

describe('neededAtParent', () => {
  const commit = (changes: Commit['changes']): Commit => ({
    sha: 'f'.repeat(40),
    parents: ['e'.repeat(40)],
    time: 0,
    subject: 'change',
    body: '',
    changes,
  });

  it('names what the parent held: modified, deleted, retyped, and a rename by its old name', () => {
    const c = commit([
      { status: 'M', path: 'src/m.ts' },
      { status: 'D', path: 'src/d.py' },
      { status: 'T', path: 'src/t.go' },
      { status: 'R', from: 'src/old.rs', path: 'lib/new.rs' },
      { status: 'A', path: 'src/added.ts' },
      { status: 'M', path: 'test/x.test.ts' },
      { status: 'R', from: 'tests/old_test.py', path: 'tests/renamed_test.py' },
      { status: 'A', path: 'tests/new_test.py' },
      { status: 'M', path: 'README.md' },
      { status: 'M', path: 'vendor/v/v.go' },
      { status: 'M', path: 'dist/out.js' },
      { status: 'C', from: 'src/m.ts', path: 'src/copy.ts' },
    ]);
    expect(neededAtParent(c)).toEqual({
      must: ['src/d.py', 'src/m.ts', 'src/old.rs', 'src/t.go'],
      should: ['test/x.test.ts', 'tests/old_test.py'],
    });
    expect(ineligibleReason(c, 1, 20)).toBeNull();
  });

  it('finds nothing for a commit that only adds, or only touches tests, and selection says so', () => {
    const added = commit([
      { status: 'A', path: 'src/a.ts' },
      { status: 'A', path: 'src/b.ts' },
      { status: 'M', path: 'README.md' },
    ]);
    expect(neededAtParent(added)).toEqual({ must: [], should: [] });
    expect(ineligibleReason(added, 1, 6)).toBe('nothing-at-parent');
    const testsOnly = commit([
      { status: 'M', path: 'src/a.test.ts' },
      { status: 'A', path: 'src/b.ts' },
    ]);
    expect(neededAtParent(testsOnly)).toEqual({ must: [], should: ['src/a.test.ts'] });
    expect(ineligibleReason(testsOnly, 1, 6)).toBe('nothing-at-parent');
    // The count of files is checked first: seven added files are too many before they are new.
    const many = commit(
      Array.from({ length: 7 }, (_, i) => ({ status: 'A' as const, path: `src/n${i}.ts` })),
    );
    expect(ineligibleReason(many, 1, 6)).toBe('too-many-source-files');
  });

  it('skips a commit whose message, made the task, is longer than a task may be', () => {
    const changed = commit([{ status: 'M', path: 'src/m.ts' }]);
    // The task is the subject, a blank line and the body, trimmed: a million characters at most.
    const body = (n: number) => ({ ...changed, body: `${'b'.repeat(n)}\n` });
    const at = TASK_LIMIT - changed.subject.length - 2;
    expect(ineligibleReason(body(at), 1, 6)).toBeNull();
    expect(ineligibleReason(body(at + 1), 1, 6)).toBe('task-too-long');
    expect(ineligibleReason({ ...changed, subject: 's'.repeat(TASK_LIMIT + 1) }, 1, 6)).toBe('task-too-long');
  });
});

describe('selectCases picks deterministically from a seed', () => {
  // 60 commits; every third is a merge, the rest change one source file each: 40 eligible.
  const history: Commit[] = Array.from({ length: 60 }, (_, i) => ({
    sha: i.toString(16).padStart(40, '0'),
    parents: i === 0 ? [] : i % 3 === 0 ? ['a'.repeat(40), 'b'.repeat(40)] : ['c'.repeat(40)],
    time: i,
    subject: `commit ${i}`,
    body: '',
    changes: [{ status: 'M', path: `src/f${i}.ts` }],
  }));
  const eligible = history.map((_, i) => i).filter((i) => i % 3 !== 0);

  it('gives the same pick for the same seed, in history order, only eligible commits', () => {
    const a = selectCases(history, { count: 5, seed: 'alpha' });
    const again = selectCases(history, { count: 5, seed: 'alpha' });
    expect(again).toEqual(a);
    expect(a.eligible).toBe(40);
    expect(a.skipped).toEqual({ root: 1, merge: 19 });
    expect(a.selected).toHaveLength(5);
    expect(new Set(a.selected).size).toBe(5);
    expect([...a.selected].sort((x, y) => x - y)).toEqual(a.selected);
    for (const i of a.selected) expect(eligible).toContain(i);
  });

  it('gives a different pick for a different seed, and every eligible commit a chance', () => {
    const a = selectCases(history, { count: 5, seed: 'alpha' }).selected;
    const b = selectCases(history, { count: 5, seed: 'beta' }).selected;
    expect(b).not.toEqual(a);
    const seen = new Set<number>();
    for (let s = 0; s < 200; s++)
      for (const i of selectCases(history, { count: 5, seed: `seed-${s}` }).selected) seen.add(i);
    expect([...seen].sort((x, y) => x - y)).toEqual(eligible);
  });
});
