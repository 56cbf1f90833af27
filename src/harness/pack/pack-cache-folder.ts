/**
 * Whether `pack` may use a cache folder. A segment is trusted because it is signed with the user's
 * key (pack-cache-key.ts), so the folders it is read from and the key is kept in must be ones no one
 * else could have written: they belong to the user running `pack`, no one else can write them, and
 * neither is reached through a link another account could change. Otherwise the folder is refused
 * with one line saying why and how to allow it, as git refuses a repository another user owns and
 * ssh a private key others can read, and `pack` runs with a cache in memory only.
 *
 * Every file made here is created exclusively (`O_EXCL`, which never follows a link).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileKind } from '../corpus/index.js';
import { replaceFile } from '../output/index.js';

/** Where the cache lives when nothing says otherwise: `$XDG_CACHE_HOME/ctxbench`, else `~/.cache/ctxbench`. */
export function defaultCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  const xdg = env.XDG_CACHE_HOME;
  const base = xdg !== undefined && path.isAbsolute(xdg) ? xdg : path.join(os.homedir(), '.cache');
  return path.join(base, 'ctxbench');
}

/**
 * The cache folder for `pack`'s options: `--cache DIR`, else none under `--no-cache`, else
 * `$CTXBENCH_CACHE` (`off` for none), else the default. Null means no cache.
 */
export function cacheDirOf(
  given: string | false | undefined,
  env: NodeJS.ProcessEnv = process.env,
): string | null {
  if (given === false) return null;
  if (given !== undefined) return path.resolve(given);
  const named = env.CTXBENCH_CACHE;
  if (named === 'off') return null;
  if (named !== undefined && named !== '') return path.resolve(named);
  return defaultCacheDir(env);
}

/** The user whose files a cache may be made of; undefined where the system has no owners (Windows). */
export const me = (): number | undefined => process.geteuid?.();

const octal = (mode: number): string => (mode & 0o777).toString(8).padStart(4, '0');

/** Why `s`, a file or folder of the cache, may not be used; null when it may. */
export function notOurs(s: fs.Stats, uid: number | undefined, what: string, closed: number): string | null {
  if (uid === undefined) return null;
  if (s.uid !== uid) return `${what} belongs to uid ${s.uid}, not to you (uid ${uid})`;
  if ((s.mode & closed) !== 0)
    return closed === 0o022
      ? `${what} is writable by group or others (mode ${octal(s.mode)}): chmod 700 it`
      : `${what} is open to group or others (mode ${octal(s.mode)}): chmod 600 it`;
  return null;
}

/**
 * A link on the way to `dir` that another account owns (it could point the cache anywhere at any
 * moment), or `dir` itself a link: why, or null. Links the user or root own (`/tmp` on macOS, a
 * home folder moved to another disk) are followed.
 */
function linkOnTheWay(dir: string, uid: number | undefined): string | null {
  const parts = dir.split(path.sep).filter((p) => p !== '');
  let at = path.parse(dir).root;
  for (const [i, part] of parts.entries()) {
    at = path.join(at, part);
    let s: fs.Stats;
    try {
      s = fs.lstatSync(at);
    } catch {
      return null; // not made yet: it will be made, a folder of ours
    }
    if (!s.isSymbolicLink()) continue;
    if (i === parts.length - 1) return `${dir} is a link: give the folder it leads to`;
    if (uid !== undefined && s.uid !== uid && s.uid !== 0)
      return `${dir} is reached through ${at}, a link that belongs to uid ${s.uid}`;
  }
  return null;
}

/**
 * `dir` made if missing (readable by its owner alone) and checked: a folder of the user's, that no
 * one else can write, reached through no link another account owns. Null when it may be used,
 * else why not; how to allow it is part of the reason. The cache folder and the key's folder
 * (pack-cache-key.ts) are both held to this.
 */
export function privateFolder(dir: string, uid: number | undefined): string | null {
  const through = linkOnTheWay(dir, uid);
  if (through !== null) return through;
  try {
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  } catch (e) {
    return `${dir} cannot be made (${(e as NodeJS.ErrnoException).code ?? 'error'})`;
  }
  const s = fs.lstatSync(dir);
  if (!s.isDirectory()) return `${dir} is ${fileKind(s)}, not a folder`;
  const folder = notOurs(s, uid, dir, 0o022);
  return folder === null ? null : `${folder}; remove it or give a folder of your own with --cache`;
}

/**
 * `file` with every link of the part that exists resolved, the rest as given (a folder not made
 * yet): so that two spellings of one place, one through a link, compare equal.
 */
export function realPlace(file: string): string {
  const rest: string[] = [];
  for (let at = path.resolve(file); ; at = path.dirname(at)) {
    try {
      return path.join(fs.realpathSync(at), ...rest.reverse());
    } catch {
      if (path.dirname(at) === at) return path.resolve(file);
      rest.push(path.basename(at));
    }
  }
}

/** Whether `inner` is `outer` or lies below it, once both are resolved (realPlace). */
export function within(inner: string, outer: string): boolean {
  const rel = path.relative(realPlace(outer), realPlace(inner));
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${path.sep}`) && !path.isAbsolute(rel));
}

/**
 * `data` in a new file `file`, readable by its owner alone: created exclusively, so that nothing
 * planted under that name (a link, a FIFO, another's file) is followed, opened or written. The
 * name holds this process's id, and this process writes one file at a time, so what lies there
 * already is an earlier process's leftover: removed first (a link itself, never its target).
 */
export const writeNew = (file: string, data: Buffer): void => replaceFile(file, data, 0o600);
