/**
 * The files `pack` may read from a working tree, as `git ls-files --cached --others
 * --exclude-standard` would list them, found without letting git evaluate ignore patterns (its
 * matcher backtracks) and without opening anything but regular files. In a repository, git lists
 * only the index's paths (with every configured program overridden, `git-run.ts`); the untracked
 * files come from a walk that applies the `.gitignore` files, `info/exclude` and the user's
 * global excludes with the linear matcher of `ignore-rules.ts`. Outside a repository the same
 * walk lists every file, `.gitignore` files honoured.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { InputError } from '../errors.js';
import {
  gitFolderAsync,
  type IgnoreLevel,
  ignoreDecision,
  ignoredHere,
  MatchBudget,
  parseRules,
  runGitAsync,
} from '../ingest/index.js';
import { type DefaultKind, defaultKind } from './default-ignores.js';

/** How long each git call of `pack` may take: listing an index is quick, a stuck one is stopped. */
const PACK_GIT_TIMEOUT = 60_000;

/** A regular file's bytes, or what it is instead; never opens a FIFO, a device or a socket. */
export type Read = Buffer | 'gone' | 'symlink' | 'folder' | 'special' | 'too-large';

/**
 * The bytes of the regular file at `full`, at most `maxBytes` of them. The kind is taken before
 * opening (a FIFO would block the open, a device may act on it), and again from the open file,
 * which cannot follow a link or wait on a pipe, in case the path changed in between.
 */
export function readRegular(full: string, maxBytes: number, follow = false): Read {
  let stat: fs.Stats;
  try {
    stat = follow ? fs.statSync(full) : fs.lstatSync(full);
  } catch {
    return 'gone';
  }
  if (stat.isSymbolicLink()) return 'symlink';
  if (stat.isDirectory()) return 'folder';
  if (!stat.isFile()) return 'special';
  if (stat.size > maxBytes) return 'too-large';
  let fd: number;
  try {
    fd = fs.openSync(
      full,
      fs.constants.O_RDONLY | fs.constants.O_NONBLOCK | (follow ? 0 : fs.constants.O_NOFOLLOW),
    );
  } catch {
    return 'gone';
  }
  try {
    const opened = fs.fstatSync(fd);
    if (!opened.isFile()) return 'special';
    // One byte more than allowed tells a file that grew past the cap since it was measured.
    const buffer = Buffer.alloc(Math.min(opened.size, maxBytes) + 1);
    let length = 0;
    for (;;) {
      const n = fs.readSync(fd, buffer, length, buffer.length - length, null);
      if (n === 0) break;
      length += n;
      if (length > maxBytes) return 'too-large';
      if (length === buffer.length) break;
    }
    return buffer.subarray(0, length);
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * Whether a path under `dir` reaches its file through real folders only. git lists the index's
 * paths whatever the working tree has become: a tracked `etc/passwd` whose folder was replaced by
 * a link to `/etc` would be read from outside the tree (O_NOFOLLOW guards only the last part of a
 * path). Each folder's real path is compared with where it should be, once per folder.
 */
export function throughRealFolders(dir: string): (rel: string) => boolean {
  const root = fs.realpathSync(dir);
  const known = new Map<string, boolean>();
  return (rel) => {
    const folder = path.posix.dirname(rel);
    if (folder === '.') return true;
    let real = known.get(folder);
    if (real === undefined) {
      try {
        real = fs.realpathSync(path.join(dir, folder)) === path.join(root, folder);
      } catch {
        real = false;
      }
      known.set(folder, real);
    }
    return real;
  };
}

/** What the walk found: paths relative to the folder packed, and the entries it left out. */
export interface Listing {
  readonly files: readonly string[];
  /** Untracked entries an ignore rule matched (a folder counts once). */
  readonly ignored: readonly string[];
  /** Entries the default ignores left out, tracked or not (a folder counts once), and why. */
  readonly defaulted: ReadonlyMap<string, DefaultKind>;
}

/**
 * The text of an ignore file, or null when there is no regular file to read (git reads no
 * `.gitignore` through a link either); one over `maxBytes` is refused, naming it.
 */
function ignoreText(full: string, shown: string, maxBytes: number, follow: boolean): string | null {
  const read = readRegular(full, maxBytes, follow);
  if (read === 'too-large')
    throw new InputError(
      shown,
      `an ignore file of more than ${maxBytes} bytes, the size limit on every file read`,
    );
  return Buffer.isBuffer(read) ? read.toString('utf8') : null;
}

interface Repo {
  /** The folder packed, relative to the top of its working tree ('' at the top). */
  readonly prefix: string;
  readonly top: string;
  /** The index's paths under the folder, relative to it. */
  readonly tracked: ReadonlySet<string>;
  /** Lowest first: the global excludes file, then `info/exclude`. */
  readonly excludes: readonly { readonly file: string; readonly shown: string }[];
}

const lines = (b: Buffer): string[] => b.toString('utf8').split('\n');

/** The repository around `dir`, or null when it is in none (or git cannot say). */
async function repositoryOf(dir: string): Promise<Repo | null> {
  const at = await gitFolderAsync(dir, PACK_GIT_TIMEOUT);
  const where = await runGitAsync(
    at,
    ['rev-parse', '--show-toplevel', '--show-prefix', '--git-path', 'info/exclude'],
    PACK_GIT_TIMEOUT,
  );
  if (where.status !== 0) return null;
  const [top = '', prefix = '', exclude = ''] = lines(where.stdout);
  if (top === '') return null;
  const listed = await runGitAsync(at, ['ls-files', '-z', '--cached', '--', '.'], PACK_GIT_TIMEOUT);
  if (listed.status !== 0)
    throw new InputError(
      dir,
      `git ls-files: ${listed.stderr.trim().split('\n')[0] || `exited ${listed.status}`}`,
    );
  const tracked = new Set(
    listed.stdout
      .toString('utf8')
      .split('\0')
      .filter((p) => p !== ''),
  );
  const configured = at.config.get('core.excludesfile');
  const home = os.homedir();
  const global =
    configured !== undefined && configured !== ''
      ? configured.replace(/^~(?=\/|$)/, home)
      : path.join(process.env.XDG_CONFIG_HOME || path.join(home, '.config'), 'git', 'ignore');
  return {
    prefix: prefix.replace(/\/$/, ''),
    top,
    tracked,
    excludes: [
      { file: global, shown: global },
      { file: path.resolve(dir, exclude), shown: path.join('.git', 'info', 'exclude') },
    ],
  };
}

const byName = (a: fs.Dirent, b: fs.Dirent): number => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

/**
 * The files of the working tree at `dir`: in a repository its tracked files and the untracked ones
 * no ignore rule matches; elsewhere every file no `.gitignore` rule matches. `.git` folders are
 * never entered; a folder holding one inside a repository is listed as itself (a nested
 * repository, counted as a submodule), as git lists it. With `defaults`, an entry the default
 * ignores name and no ignore rule keeps (`!`) is left out, tracked or not, and a folder so left
 * is never entered: the files git tracks below it are left with it.
 */
export async function listWorkingTree(dir: string, maxBytes: number, defaults = true): Promise<Listing> {
  const repo = await repositoryOf(dir);
  const ignored: string[] = [];
  const defaulted = new Map<string, DefaultKind>();
  // Rules are matched against paths from the top of the working tree, as git matches them.
  const prefix = repo === null || repo.prefix === '' ? '' : `${repo.prefix}/`;
  const levels: IgnoreLevel[] = [];
  const budget = new MatchBudget();
  const addLevel = (folder: string, full: string, shown: string, follow: boolean): void => {
    const text = ignoreText(full, shown, maxBytes, follow);
    if (text !== null) levels.push({ folder, rules: parseRules(text, shown, budget) });
  };
  for (const { file, shown } of repo?.excludes ?? []) addLevel('', file, shown, true);
  // The `.gitignore` files above the folder packed, and whether one of them ignores it whole.
  let above = false;
  if (repo !== null && repo.prefix !== '') {
    const parts = repo.prefix.split('/');
    for (let k = 0; k < parts.length && !above; k++) {
      const folder = parts.slice(0, k).join('/');
      addLevel(folder, path.join(repo.top, folder, '.gitignore'), path.join(folder, '.gitignore'), false);
      above = ignoredHere(levels, parts.slice(0, k + 1).join('/'), true);
    }
  }
  const visit = (rel: string): void => {
    const full = path.join(dir, rel);
    // A folder's rules apply below it only: dropped when the walk leaves it.
    const outside = levels.length;
    if (!above) {
      const gitignore = path.join(rel, '.gitignore');
      addLevel(`${prefix}${rel}`.replace(/\/$/, ''), path.join(full, '.gitignore'), gitignore, false);
    }
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(full, { withFileTypes: true }).sort(byName);
    } catch {
      levels.length = outside;
      return; // gone, or not ours to read: nothing of it is listed
    }
    for (const e of entries) {
      if (e.name === '.git') continue;
      const p = rel === '' ? e.name : `${rel}/${e.name}`;
      const folder = e.isDirectory();
      const tracked = repo?.tracked.has(p) === true;
      const kind = defaults ? defaultKind(e.name, folder) : null;
      // A tracked file is the index's, whatever the rules say, unless the defaults name it.
      if (tracked && kind === null) continue;
      const said = above ? 'ignored' : ignoreDecision(levels, `${prefix}${p}`, folder);
      if (said === 'ignored' && !tracked) {
        ignored.push(p);
        continue;
      }
      // The tree's own `!` rule is the one thing that keeps what the defaults name.
      if (kind !== null && said !== 'kept') {
        defaulted.set(p, kind);
        continue;
      }
      if (tracked) continue;
      if (folder && !(repo !== null && fs.existsSync(path.join(dir, p, '.git')))) visit(p);
      else files.push(p);
    }
    levels.length = outside;
  };
  const files: string[] = [];
  visit('');
  // The tracked files below a folder the defaults left out go with it: git knows them, the walk
  // never entered it.
  const kept = (p: string): boolean => {
    for (let at = p.indexOf('/'); at >= 0; at = p.indexOf('/', at + 1))
      if (defaulted.has(p.slice(0, at))) return false;
    return !defaulted.has(p);
  };
  for (const p of repo?.tracked ?? []) if (kept(p)) files.push(p);
  return { files: [...new Set(files)].sort(), ignored, defaulted };
}
