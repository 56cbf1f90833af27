/**
 * A git repository read through the system `git`, never written: the history as commits, a
 * commit's tree, blobs in bulk, and when each path last changed. Every call is an argument vector
 * (no shell), with the user's pager, colours and system configuration kept out of the output,
 * and every program the repository's own configuration names kept from running (`git-run.ts`).
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { InputError } from '../../errors.js';
import type { Change, Commit, TreeEntry } from '../ingest-types.js';
import { type GitFolder, gitFolder, runGit } from './git-run.js';

export interface Repository extends GitFolder {
  /** The top level of the working tree (the git folder itself for a bare repository). */
  readonly root: string;
  /** The object id of HEAD's commit. */
  readonly head: string;
}

/** git's output when it succeeded, or an InputError with the first line of what git said. */
export function gitOk(at: GitFolder, args: readonly string[], what: string, input?: Buffer | string): Buffer {
  const r = runGit(at, args, input);
  if (r.status !== 0)
    throw new InputError(at.dir, `${what}: ${firstLine(r.stderr) || `git exited ${r.status}`}`);
  return r.stdout;
}

const firstLine = (text: string): string => text.trim().split('\n')[0] ?? '';

// Only git's line end: a folder's name may itself end in a space.
const text = (b: Buffer): string => b.toString('utf8').replace(/\n$/, '');

/**
 * `dir` as a repository to read. A shallow clone is refused unless `shallow` allows it: a history
 * it lacks cannot be sampled, but one commit's tree it holds can be read.
 */
export function openRepository(dir: string, options: { readonly shallow?: boolean } = {}): Repository {
  let isFolder = false;
  try {
    isFolder = fs.statSync(dir).isDirectory();
  } catch {
    // A missing path is reported the same way as a file: neither can be read as a repository.
  }
  if (!isFolder) throw new InputError(dir, 'not a folder');
  const at = gitFolder(dir);
  const gitDir = runGit(at, ['rev-parse', '--git-dir']);
  if (gitDir.status !== 0)
    throw new InputError(dir, `not a git repository (${firstLine(gitDir.stderr) || 'git rev-parse failed'})`);
  if (
    options.shallow !== true &&
    text(gitOk(at, ['rev-parse', '--is-shallow-repository'], 'git rev-parse')) === 'true'
  )
    throw new InputError(
      dir,
      'a shallow clone: its history is missing; fetch all of it with `git fetch --unshallow`',
    );
  const head = runGit(at, ['rev-parse', '--verify', '--quiet', 'HEAD^{commit}']);
  if (head.status !== 0) throw new InputError(dir, 'no commits: the history is empty');
  const top = runGit(at, ['rev-parse', '--show-toplevel']);
  const root = path.resolve(
    top.status === 0 && text(top.stdout) !== ''
      ? text(top.stdout)
      : text(gitOk(at, ['rev-parse', '--absolute-git-dir'], 'git rev-parse')),
  );
  return { ...at, dir: root, root, head: text(head.stdout) };
}

/** A revision resolved to a commit id, so that nothing the caller passes reaches git as an option. */
function resolveCommit(repo: Repository, rev: string): string {
  const r = rev.startsWith('-')
    ? undefined
    : runGit(repo, ['rev-parse', '--verify', '--quiet', `${rev}^{commit}`]);
  if (r === undefined || r.status !== 0) throw new InputError(repo.root, `no commit ${JSON.stringify(rev)}`);
  return text(r.stdout);
}

// Each commit opens with this byte and its id; the fields after it come in a fixed number.
const COMMIT_MARK = '\u0001';
const LOG_FORMAT = '%x01%H%x00%P%x00%ct%x00%s%x00%b%x00';
export const OBJECT_ID = /^[0-9a-f]{40}(?:[0-9a-f]{24})?$/;
// With -z git puts a newline between a commit's header and its first status; it is not part of it.
const STATUS = /^\n?([ACDMRTUXB])\d*$/;

/**
 * Every commit reachable from HEAD (or `until`), oldest first with parents before children, each
 * with what it changed against its first parent (a merge too: `parents.length > 1` flags it).
 */
export function commits(repo: Repository, options: { readonly until?: string } = {}): Commit[] {
  const tip = resolveCommit(repo, options.until ?? repo.head);
  const out = gitOk(
    repo,
    [
      'log',
      '--reverse',
      '--date-order',
      `--format=${LOG_FORMAT}`,
      '--name-status',
      '-M',
      '-z',
      // Stated, not left to the user's configuration: the root's files, merges against their first
      // parent, whole-repository paths, and nothing else in the output.
      '--root',
      '--diff-merges=first-parent',
      '--no-relative',
      '--no-color',
      '--no-ext-diff',
      '--no-textconv',
      '--no-show-signature',
      '--no-mailmap',
      tip,
      '--',
    ],
    'git log',
  );
  return parseLog(repo.root, out.toString('utf8'));
}

function parseLog(root: string, out: string): Commit[] {
  const tokens = out.split('\0');
  const result: Commit[] = [];
  let i = 0;
  const bad = (detail: string): InputError => new InputError(root, `unexpected git log output: ${detail}`);
  const next = (): string => {
    const t = tokens[i++];
    if (t === undefined) throw bad('it ends inside a commit');
    return t;
  };
  while (i < tokens.length) {
    const head = tokens[i++] ?? '';
    if (head === '' || head === '\n') continue;
    const sha = head.startsWith(COMMIT_MARK) ? head.slice(1) : '';
    if (!OBJECT_ID.test(sha)) throw bad(`${JSON.stringify(head.slice(0, 80))} where a commit was expected`);
    const parents = next();
    const time = Number(next());
    const subject = next();
    // trimEnd, not /\s+$/: that regular expression is quadratic on a long run of spaces inside.
    const body = next().trimEnd();
    const changes: Change[] = [];
    while (i < tokens.length) {
      const t = tokens[i] ?? '';
      if (t.startsWith(COMMIT_MARK)) break;
      i++;
      if (t === '' || t === '\n') continue;
      const m = STATUS.exec(t);
      if (m === null) throw bad(`${JSON.stringify(t.slice(0, 80))} where a status was expected`);
      const letter = m[1];
      if (letter === 'R' || letter === 'C') {
        const from = next();
        changes.push({ status: letter, path: next(), from });
      } else if (letter === 'A' || letter === 'M' || letter === 'D' || letter === 'T') {
        changes.push({ status: letter, path: next() });
      } else {
        // U (unmerged), X (unknown), B (broken pair) do not occur in a log of commits.
        throw bad(`status ${letter} in commit ${sha}`);
      }
    }
    result.push({
      sha,
      parents: parents === '' ? [] : parents.split(' '),
      time,
      subject,
      body,
      changes,
    });
  }
  return result;
}

/** The files of a commit's tree (submodules and symlinks included), sorted by path. */
export function tree(repo: Repository, commit: string): TreeEntry[] {
  const sha = resolveCommit(repo, commit);
  const out = gitOk(repo, ['ls-tree', '-r', '-z', '-l', '--full-tree', sha], 'git ls-tree').toString('utf8');
  return parseTree(repo, out).sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** `git ls-tree -r -z -l`'s records as entries, in git's order. */
export function parseTree(repo: Repository, out: string): TreeEntry[] {
  const entries: TreeEntry[] = [];
  for (const record of out.split('\0')) {
    if (record === '') continue;
    const tab = record.indexOf('\t');
    const fields = record.slice(0, tab).split(/ +/);
    const [mode, , blob, size] = fields;
    if (tab < 0 || mode === undefined || blob === undefined || size === undefined)
      throw new InputError(
        repo.root,
        `unexpected git ls-tree output: ${JSON.stringify(record.slice(0, 80))}`,
      );
    // A submodule's entry is a commit of another repository: no size here. An object the
    // repository lacks (a partial clone) has none either.
    const p = record.slice(tab + 1);
    if (size === 'BAD') entries.push({ path: p, mode, blob, size: 0, missing: true });
    else entries.push({ path: p, mode, blob, size: size === '-' ? 0 : Number(size) });
  }
  return entries;
}

/** The bytes of many blobs, from one `git cat-file --batch`. */
export function readBlobs(repo: Repository, blobs: readonly string[]): Map<string, Buffer> {
  const ids = [...new Set(blobs)];
  const result = new Map<string, Buffer>();
  if (ids.length === 0) return result;
  // One id a line: anything else would be read by cat-file as a revision expression.
  for (const id of ids)
    if (!OBJECT_ID.test(id)) throw new InputError(repo.root, `not an object id: ${JSON.stringify(id)}`);
  const out = gitOk(repo, ['cat-file', '--batch'], 'git cat-file', `${ids.join('\n')}\n`);
  let at = 0;
  for (const id of ids) {
    const eol = out.indexOf(0x0a, at);
    if (eol < 0) throw new InputError(repo.root, `git cat-file output ends before object ${id}`);
    const header = out.subarray(at, eol).toString('utf8');
    const [name, type, size] = header.split(' ');
    if (type === 'missing' || type === 'ambiguous' || size === undefined)
      throw new InputError(repo.root, `object ${id} is missing`);
    if (name !== id) throw new InputError(repo.root, `git cat-file answered ${name} for object ${id}`);
    const start = eol + 1;
    const end = start + Number(size);
    if (end > out.length) throw new InputError(repo.root, `git cat-file output ends inside object ${id}`);
    result.set(id, Buffer.from(out.subarray(start, end)));
    // The object's bytes are followed by a newline.
    at = end + 1;
  }
  return result;
}

/** Git's (SHA-1) blob id of `bytes`, for files of a working tree. */
export function hashWorkingFile(bytes: Buffer): string {
  return createHash('sha1').update(`blob ${bytes.length}\0`).update(bytes).digest('hex');
}
