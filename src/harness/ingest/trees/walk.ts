/**
 * The trees of many commits from three git processes, however many commits: the first tree
 * listed, each next one as its difference from the one before (one `git diff-tree --stdin`), and
 * the sizes of the blobs those differences bring (one `git cat-file --batch-check`). A process a
 * commit (`ls-tree`, and `rev-parse` before it) was a tenth of a 200-case ingest.
 */
import { InputError } from '../../errors.js';
import { gitOk, OBJECT_ID, parseTree, type Repository } from '../git/git.js';
import type { TreeEntry } from '../ingest-types.js';

const byPath = (a: TreeEntry, b: TreeEntry): number => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0);

// `:old-mode new-mode old-blob new-blob status`, the opening of each of diff-tree's raw records.
const RAW = /^:(\d{6}) (\d{6}) ([0-9a-f]+) ([0-9a-f]+) ([ADMT])$/;
const SUBMODULE = '160000';

interface Change {
  readonly path: string;
  /** null: the path is gone. */
  readonly to: { readonly mode: string; readonly blob: string } | null;
}

/** Each consecutive pair's differences, from one `git diff-tree --stdin`. */
function differences(repo: Repository, commits: readonly string[]): Change[][] {
  // `C P` is read as commit C with parent P: the difference from P to C, headed by C's id.
  const pairs = commits.slice(1).map((c, k) => `${c} ${commits[k]}\n`);
  const out = gitOk(
    repo,
    // Every pair prints its header (`--always`), the later commit's id, so that the output splits
    // by pair even where two trees are the same; submodules count whatever the configuration says.
    [
      'diff-tree',
      '--stdin',
      '--always',
      '-r',
      '-z',
      '--no-renames',
      '--no-abbrev',
      '--ignore-submodules=none',
    ],
    'git diff-tree',
    pairs.join(''),
  ).toString('utf8');
  const tokens = out.split('\0');
  const bad = (detail: string): InputError =>
    new InputError(repo.root, `unexpected git diff-tree output: ${detail}`);
  const result: Change[][] = [];
  let i = 0;
  for (const [k, to] of commits.slice(1).entries()) {
    const header = (tokens[i++] ?? '').replace(/^\n/, '');
    if (header.split(' ')[0] !== to) throw bad(`${JSON.stringify(header.slice(0, 90))} for commit ${k + 1}`);
    const changes: Change[] = [];
    while (i < tokens.length && (tokens[i] ?? '').replace(/^\n/, '').startsWith(':')) {
      const m = RAW.exec((tokens[i] ?? '').replace(/^\n/, ''));
      const path = tokens[i + 1];
      if (m === null || path === undefined) throw bad(JSON.stringify((tokens[i] ?? '').slice(0, 90)));
      i += 2;
      const [, , mode, , blob, status] = m;
      changes.push({ path, to: status === 'D' ? null : { mode: mode as string, blob: blob as string } });
    }
    result.push(changes);
  }
  if (tokens.slice(i).some((t) => t !== '' && t !== '\n')) throw bad('more pairs than were asked for');
  return result;
}

/** The sizes of blobs, from one `git cat-file --batch-check`; a blob the repository lacks has none. */
function sizes(repo: Repository, blobs: ReadonlySet<string>): Map<string, number> {
  const ids = [...blobs];
  const result = new Map<string, number>();
  if (ids.length === 0) return result;
  const out = gitOk(repo, ['cat-file', '--batch-check'], 'git cat-file', `${ids.join('\n')}\n`);
  const lines = out.toString('utf8').split('\n');
  for (const [k, id] of ids.entries()) {
    const [name, type, size] = (lines[k] ?? '').split(' ');
    if (name === id && type === 'missing') continue;
    if (name !== id || size === undefined || !/^\d+$/.test(size))
      throw new InputError(repo.root, `unexpected git cat-file output for object ${id}`);
    result.set(id, Number(size));
  }
  return result;
}

/**
 * The files of each commit's tree (`tree` for each, the same entries in the same order), the
 * commits given as object ids. Consecutive commits of a history share most of their entries, and
 * the lists share those entries' objects.
 */
export function treesOf(repo: Repository, commits: readonly string[]): TreeEntry[][] {
  const first = commits[0];
  if (first === undefined) return [];
  for (const c of commits)
    if (!OBJECT_ID.test(c)) throw new InputError(repo.root, `not a commit id: ${JSON.stringify(c)}`);
  const listed = gitOk(repo, ['ls-tree', '-r', '-z', '-l', '--full-tree', first], 'git ls-tree');
  const diffs = differences(repo, commits);
  const known = new Set<string>();
  for (const changes of diffs)
    for (const { to } of changes) if (to !== null && to.mode !== SUBMODULE) known.add(to.blob);
  const size = sizes(repo, known);
  const state = new Map(parseTree(repo, listed.toString('utf8')).map((e) => [e.path, e]));
  let entries = [...state.values()].sort(byPath);
  const result = [entries];
  for (const changes of diffs) {
    for (const { path, to } of changes) {
      if (to === null) state.delete(path);
      // A submodule's entry is a commit of another repository: no size, as ls-tree gives none.
      else if (to.mode === SUBMODULE) state.set(path, { path, mode: to.mode, blob: to.blob, size: 0 });
      else {
        const bytes = size.get(to.blob);
        state.set(
          path,
          bytes === undefined
            ? { path, mode: to.mode, blob: to.blob, size: 0, missing: true }
            : { path, mode: to.mode, blob: to.blob, size: bytes },
        );
      }
    }
    if (changes.length > 0) entries = [...state.values()].sort(byPath);
    result.push(entries);
  }
  return result;
}
