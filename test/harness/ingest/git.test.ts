import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { InputError } from '../../../src/harness/errors.js';
import {
  commits,
  hashWorkingFile,
  openRepository,
  type Repository,
  readBlobs,
  tree,
} from '../../../src/harness/ingest/git/git.js';
import { lastChanges } from '../../../src/harness/ingest/git/history.js';
import type { Change } from '../../../src/harness/ingest/ingest-types.js';
import {
  EPOCH,
  git,
  gitHashObject,
  HOUR,
  initRepository,
  makeRepository,
  shallowClone,
} from '../../helpers/git-fixture.js';
import { tempDir } from '../../helpers/temp.js';

const tmp = tempDir('git');

/** The InputError `f` throws, failing the test if it throws nothing or something else. */
function inputError(f: () => unknown): InputError {
  try {
    f();
  } catch (e) {
    if (e instanceof InputError) return e;
    throw e;
  }
  throw new Error('no InputError thrown');
}

const NEWLINE_NAME = 'odd\nname.txt';
const UNICODE_NAME = 'docs/ünï côde.md';

/** The history of the commits tests: A, M, D, R, an empty commit, a side branch and its merge. */
function history(dir: string): string[] {
  return makeRepository(dir, [
    { write: 'src/a.ts', content: 'export const a = 1;\n' },
    { write: 'read me.md', content: 'hello, this is a readme long enough to be found renamed\n' },
    { commit: 'first\n\nthe body\nof two lines' },
    { write: 'src/a.ts', content: 'export const a = 2;\n' },
    { write: UNICODE_NAME, content: 'unicode\n' },
    { write: NEWLINE_NAME, content: 'newline\n' },
    { commit: 'second' },
    { rename: 'read me.md', to: 'docs/read me.md' },
    { delete: NEWLINE_NAME },
    { commit: 'third' },
    { commit: 'empty' },
    { checkout: 'side', at: 3 },
    { write: 'side.ts', content: 'side\n' },
    { commit: 'side' },
    { checkout: 'main' },
    { write: 'src/a.ts', content: 'export const a = 3;\n' },
    { commit: 'main' },
    { merge: 'side', message: 'merge side' },
  ]);
}

const byPath = (changes: readonly Change[]): Change[] =>
  [...changes].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));

describe('openRepository', () => {
  it('refuses a path that does not exist, and a file, as not a folder', () => {
    const missing = path.join(tmp, 'missing');
    const e = inputError(() => openRepository(missing));
    expect(e.file).toBe(missing);
    expect(e.line).toBe(`${missing}: not a folder`);
    const file = path.join(tmp, 'a-file');
    fs.writeFileSync(file, 'x');
    expect(inputError(() => openRepository(file)).line).toBe(`${file}: not a folder`);
  });

  it('refuses a folder that is not a git repository', () => {
    const dir = path.join(tmp, 'plain');
    fs.mkdirSync(dir);
    const e = inputError(() => openRepository(dir));
    expect(e.file).toBe(dir);
    expect(e.message).toMatch(/^not a git repository/);
  });

  it('refuses a shallow clone, saying how to fetch the history', () => {
    const source = path.join(tmp, 'deep');
    makeRepository(source, [
      { write: 'a', content: '1' },
      { commit: 'one' },
      { write: 'a', content: '2' },
      { commit: 'two' },
    ]);
    const clone = shallowClone(source, path.join(tmp, 'shallow'));
    const e = inputError(() => openRepository(clone));
    expect(e.file).toBe(clone);
    expect(e.message).toMatch(/shallow/);
    expect(e.message).toContain('git fetch --unshallow');
    // The source itself, with its whole history, opens.
    expect(openRepository(source).head).toBe(git(source, ['rev-parse', 'HEAD']));
  });

  it('refuses a repository without commits', () => {
    const dir = initRepository(path.join(tmp, 'empty'));
    const e = inputError(() => openRepository(dir));
    expect(e.file).toBe(dir);
    expect(e.message).toMatch(/no commits/);
  });

  it('opens a subfolder of a repository at its top level and HEAD', () => {
    const dir = path.join(tmp, 'nested');
    const shas = makeRepository(dir, [{ write: 'sub/x.ts', content: 'x' }, { commit: 'x' }]);
    const repo = openRepository(path.join(dir, 'sub'));
    expect({ root: repo.root, head: repo.head }).toEqual({ root: dir, head: shas[0] });
  });
});

describe('the repository asked for, and no other', () => {
  it('opens a bare clone at its git folder', () => {
    const source = path.join(tmp, 'for-bare');
    const shas = makeRepository(source, [{ write: 'a.ts', content: 'a' }, { commit: 'a' }]);
    const bare = path.join(tmp, 'bare.git');
    git(tmp, ['clone', '-q', '--bare', source, bare]);
    const repo = openRepository(bare);
    expect({ root: repo.root, head: repo.head }).toEqual({ root: bare, head: shas[0] });
    expect(commits(repo).map((c) => c.changes)).toEqual([[{ status: 'A', path: 'a.ts' }]]);
  });

  it('is not turned to another repository by GIT_DIR in the environment (as inside a hook)', () => {
    const mine = path.join(tmp, 'mine');
    const other = path.join(tmp, 'other');
    const [one] = makeRepository(mine, [{ write: 'mine.ts', content: 'm' }, { commit: 'mine' }]);
    makeRepository(other, [{ write: 'other.ts', content: 'o' }, { commit: 'other' }]);
    const saved = process.env.GIT_DIR;
    process.env.GIT_DIR = path.join(other, '.git');
    try {
      const repo = openRepository(mine);
      expect(repo.head).toBe(one);
      expect(commits(repo).map((c) => c.subject)).toEqual(['mine']);
    } finally {
      if (saved === undefined) delete process.env.GIT_DIR;
      else process.env.GIT_DIR = saved;
    }
  });
});

describe('commits', () => {
  let repo: Repository;
  let shas: string[];
  beforeAll(() => {
    const dir = path.join(tmp, 'history');
    shas = history(dir);
    repo = openRepository(dir);
  });

  it('lists every commit oldest first with parents, times, subjects and bodies', () => {
    const list = commits(repo);
    expect(list.map((c) => c.sha)).toEqual(shas);
    expect(list.map((c) => c.time)).toEqual(shas.map((_, i) => EPOCH + i * HOUR));
    expect(list.map((c) => c.subject)).toEqual([
      'first',
      'second',
      'third',
      'empty',
      'side',
      'main',
      'merge side',
    ]);
    expect(list[0]?.body).toBe('the body\nof two lines');
    expect(list[1]?.body).toBe('');
    expect(list.map((c) => c.parents)).toEqual([
      [],
      [shas[0]],
      [shas[1]],
      [shas[2]],
      [shas[3]],
      [shas[3]],
      [shas[5], shas[4]],
    ]);
  });

  it('reads A, M, D and R (with -M) against the first parent, with spaces, unicode and newlines in paths', () => {
    const list = commits(repo);
    expect(byPath(list[0]?.changes ?? [])).toEqual([
      { status: 'A', path: 'read me.md' },
      { status: 'A', path: 'src/a.ts' },
    ]);
    expect(byPath(list[1]?.changes ?? [])).toEqual([
      { status: 'A', path: UNICODE_NAME },
      { status: 'A', path: NEWLINE_NAME },
      { status: 'M', path: 'src/a.ts' },
    ]);
    expect(byPath(list[2]?.changes ?? [])).toEqual([
      { status: 'R', path: 'docs/read me.md', from: 'read me.md' },
      { status: 'D', path: NEWLINE_NAME },
    ]);
    expect(list[3]?.changes).toEqual([]);
    expect(list[5]?.changes).toEqual([{ status: 'M', path: 'src/a.ts' }]);
    // The merge brings side.ts into main: that is its change against its first parent.
    expect(list[6]?.changes).toEqual([{ status: 'A', path: 'side.ts' }]);
  });

  it('stops at `until`, and refuses a revision that is not a commit', () => {
    expect(commits(repo, { until: shas[2] ?? '' }).map((c) => c.sha)).toEqual(shas.slice(0, 3));
    expect(commits(repo, { until: 'side' }).map((c) => c.sha)).toEqual([...shas.slice(0, 4), shas[4]]);
    expect(inputError(() => commits(repo, { until: 'no-such-branch' })).message).toBe(
      'no commit "no-such-branch"',
    );
    expect(inputError(() => commits(repo, { until: '--all' })).message).toBe('no commit "--all"');
  });

  it('lastChangeBefore: the time of the last change strictly before a commit, deletions not counted', () => {
    const list = commits(repo);
    const last = lastChanges(list);
    const t = (i: number): number => EPOCH + i * HOUR;
    // src/a.ts changed at 0, 1 and 5.
    expect(last.lastChangeBefore('src/a.ts', 0)).toBeNull();
    expect(last.lastChangeBefore('src/a.ts', 1)).toBe(t(0));
    expect(last.lastChangeBefore('src/a.ts', 2)).toBe(t(1));
    expect(last.lastChangeBefore('src/a.ts', 5)).toBe(t(1));
    expect(last.lastChangeBefore('src/a.ts', 6)).toBe(t(5));
    // Renamed into docs/ at 2: the new path's first change.
    expect(last.lastChangeBefore('docs/read me.md', 2)).toBeNull();
    expect(last.lastChangeBefore('docs/read me.md', 3)).toBe(t(2));
    expect(last.lastChangeBefore('read me.md', 6)).toBe(t(0));
    // Added at 1, deleted at 2: the deletion is not a change of content.
    expect(last.lastChangeBefore(NEWLINE_NAME, 6)).toBe(t(1));
    // side.ts: made on the branch at 4, brought into main by the merge at 6.
    expect(last.lastChangeBefore('side.ts', 5)).toBe(t(4));
    expect(last.lastChangeBefore('side.ts', 7)).toBe(t(6));
    expect(last.lastChangeBefore('never.ts', 7)).toBeNull();
  });
});

describe('commits with names made to look like the log format', () => {
  it('reads paths and messages that look like commit marks or statuses as what they are', () => {
    const dir = path.join(tmp, 'tricky');
    const mark = `\u0001${'a'.repeat(40)}`;
    const shas = makeRepository(dir, [
      { write: mark, content: 'x' },
      { write: 'M', content: 'm' },
      { commit: `${mark}\n\nM\n` },
      { write: 'R100', content: 'r' },
      { commit: 'A' },
    ]);
    const list = commits(openRepository(dir));
    expect(list.map((c) => c.sha)).toEqual(shas);
    expect(list[0]?.subject).toBe(mark);
    expect(list[0]?.body).toBe('M');
    expect(byPath(list[0]?.changes ?? [])).toEqual([
      { status: 'A', path: mark },
      { status: 'A', path: 'M' },
    ]);
    expect(list[1]?.subject).toBe('A');
    expect(list[1]?.changes).toEqual([{ status: 'A', path: 'R100' }]);
  });
});

describe('tree and readBlobs', () => {
  const binary = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01, 0xff, 0x0a]);
  const latin1 = Buffer.from('café\n', 'latin1');
  const submodule = 'b'.repeat(40);
  let repo: Repository;
  let shas: string[];
  beforeAll(() => {
    const dir = path.join(tmp, 'modes');
    shas = makeRepository(dir, [
      { write: 'src/x y.ts', content: 'export {};\n' },
      { write: 'img.png', content: binary },
      { write: 'latin1.txt', content: latin1 },
      { symlink: 'link', target: 'src/x y.ts' },
      { submodule: 'vendor/lib', sha: submodule },
      { commit: 'modes' },
    ]);
    fs.writeFileSync(path.join(dir, 'run.sh'), '#!/bin/sh\n');
    fs.chmodSync(path.join(dir, 'run.sh'), 0o755);
    git(dir, ['add', 'run.sh']);
    git(dir, ['commit', '-q', '-m', 'script'], {
      GIT_AUTHOR_DATE: `@${EPOCH + HOUR} +0000`,
      GIT_COMMITTER_DATE: `@${EPOCH + HOUR} +0000`,
    });
    shas.push(git(dir, ['rev-parse', 'HEAD']));
    repo = openRepository(dir);
  });

  it('lists the entries of a commit with modes, blobs and sizes, sorted by path', () => {
    const dir = repo.root;
    const blob = (bytes: Buffer | string): string => gitHashObject(dir, Buffer.from(bytes));
    expect(tree(repo, shas[1] ?? '')).toEqual([
      { path: 'img.png', mode: '100644', blob: blob(binary), size: binary.length },
      { path: 'latin1.txt', mode: '100644', blob: blob(latin1), size: latin1.length },
      { path: 'link', mode: '120000', blob: blob('src/x y.ts'), size: 'src/x y.ts'.length },
      { path: 'run.sh', mode: '100755', blob: blob('#!/bin/sh\n'), size: 10 },
      { path: 'src/x y.ts', mode: '100644', blob: blob('export {};\n'), size: 11 },
      { path: 'vendor/lib', mode: '160000', blob: submodule, size: 0 },
    ]);
    expect(tree(repo, shas[0] ?? '').map((e) => e.path)).not.toContain('run.sh');
    expect(inputError(() => tree(repo, 'nope')).message).toBe('no commit "nope"');
  });

  it('reads many blobs back byte for byte, and names a missing one', () => {
    const entries = tree(repo, shas[1] ?? '').filter((e) => e.mode !== '160000');
    const blobs = readBlobs(
      repo,
      entries.map((e) => e.blob),
    );
    expect(blobs.size).toBe(entries.length);
    const read = (p: string): Buffer | undefined => blobs.get(entries.find((e) => e.path === p)?.blob ?? '');
    expect(read('img.png')).toEqual(binary);
    expect(read('latin1.txt')).toEqual(latin1);
    expect(read('link')?.toString()).toBe('src/x y.ts');
    expect(read('src/x y.ts')?.toString()).toBe('export {};\n');
    const missing = 'c'.repeat(40);
    const e = inputError(() => readBlobs(repo, [entries[0]?.blob ?? '', missing]));
    expect(e.file).toBe(repo.root);
    expect(e.message).toBe(`object ${missing} is missing`);
    expect(readBlobs(repo, []).size).toBe(0);
  });
});

describe('hashWorkingFile', () => {
  it("equals git hash-object's id of the same bytes", () => {
    const dir = initRepository(path.join(tmp, 'hash'));
    const samples = [
      Buffer.alloc(0),
      Buffer.from('hello\n'),
      Buffer.from('ünïcode\r\nno final newline'),
      Buffer.from([0, 1, 2, 255, 254, 0]),
      Buffer.alloc(100_000, 'x'),
    ];
    for (const bytes of samples) expect(hashWorkingFile(bytes)).toBe(gitHashObject(dir, bytes));
    // A fixed point known from git itself: the empty blob.
    expect(hashWorkingFile(Buffer.alloc(0))).toBe('e69de29bb2d1d6434b8b29ae775ad8c2e48c5391');
  });
});
