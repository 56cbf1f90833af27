/**
 * Whether `pack` may use a cache folder, and its signing key. A segment is trusted because it is
 * signed with the key, so the key must be one that no one else could have written or read: the
 * folder and the key belong to the user running `pack`, no one else can write the folder, no one
 * else can read or write the key, and neither is reached through a link another account could
 * change. Otherwise the folder is refused with one line saying why and how to allow it, as git
 * refuses a repository another user owns and ssh a private key others can read, and `pack` runs
 * with a cache in memory only.
 *
 * Every file made here is created exclusively (`O_EXCL`, which never follows a link), and the key
 * is opened without following a link and without waiting on a pipe, its kind and owner checked on
 * the open file before a byte is read.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const KEY_FILE = 'key';
const KEY_BYTES = 32;

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

/** The folder's key, or why the folder is not used. */
export type CacheFolder = { readonly key: Buffer } | { readonly refused: string };

/** The user whose files a cache may be made of; undefined where the system has no owners (Windows). */
const me = (): number | undefined => process.geteuid?.();

/** What a file that should not be there is, for the line that refuses it. */
function kindOf(s: fs.Stats): string {
  if (s.isSymbolicLink()) return 'a link';
  if (s.isDirectory()) return 'a folder';
  if (s.isFIFO()) return 'a FIFO';
  if (s.isSocket()) return 'a socket';
  if (s.isCharacterDevice() || s.isBlockDevice()) return 'a device';
  return s.isFile() ? 'a file' : 'not a regular file';
}

const octal = (mode: number): string => (mode & 0o777).toString(8).padStart(4, '0');

/** Why `s`, a file or folder of the cache, may not be used; null when it may. */
function notOurs(s: fs.Stats, uid: number | undefined, what: string, closed: number): string | null {
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
 * The cache folder `dir` made if missing (readable by its owner alone), checked, and its key read
 * or made; or why it is not used. How to allow it is part of the reason.
 */
export function openFolder(dir: string): CacheFolder {
  const uid = me();
  const refuse = (why: string): CacheFolder => ({ refused: why });
  const through = linkOnTheWay(dir, uid);
  if (through !== null) return refuse(through);
  try {
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  } catch (e) {
    return refuse(`${dir} cannot be made (${(e as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  const s = fs.lstatSync(dir);
  if (!s.isDirectory()) return refuse(`${dir} is ${kindOf(s)}, not a folder`);
  const folder = notOurs(s, uid, dir, 0o022);
  if (folder !== null) return refuse(`${folder}; remove it or give a folder of your own with --cache`);
  return keyIn(dir, uid);
}

/** The key's bytes when it is a regular file of ours, private, of the right length; else why not, or null for none there. */
function readKey(file: string, uid: number | undefined): Buffer | string | null {
  let s: fs.Stats;
  try {
    s = fs.lstatSync(file);
  } catch {
    return null;
  }
  // Checked before opening, so that a FIFO is never opened; and on the open file, in case the
  // name was swapped meanwhile.
  const check = (t: fs.Stats): string | null =>
    t.isFile() ? notOurs(t, uid, file, 0o077) : `${file} is ${kindOf(t)}, not a regular file`;
  const before = check(s);
  if (before !== null) return before;
  let fd: number;
  try {
    fd = fs.openSync(file, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW | fs.constants.O_NONBLOCK);
  } catch (e) {
    return `${file} cannot be opened (${(e as NodeJS.ErrnoException).code ?? 'error'})`;
  }
  try {
    const opened = check(fs.fstatSync(fd));
    if (opened !== null) return opened;
    const key = Buffer.alloc(KEY_BYTES + 1);
    const n = fs.readSync(fd, key, 0, key.length, 0);
    // A key of another length is no key: a new one is made (every segment then reads as foreign).
    return n === KEY_BYTES ? key.subarray(0, KEY_BYTES) : null;
  } finally {
    fs.closeSync(fd);
  }
}

/** The folder's key: the one there, else a new one, readable by its owner alone; or why not. */
function keyIn(dir: string, uid: number | undefined): CacheFolder {
  const file = path.join(dir, KEY_FILE);
  const found = readKey(file, uid);
  if (Buffer.isBuffer(found)) return { key: found };
  if (typeof found === 'string') return { refused: `${found}; remove it to start the cache anew` };
  const key = randomBytes(KEY_BYTES);
  const tmp = path.join(dir, `.${KEY_FILE}.${process.pid}.tmp`);
  try {
    writeNew(tmp, key);
    try {
      // A link, not a rename: when another pack made a key meanwhile, the first one made stays
      // and this pack uses it, so no pack's segments read as foreign.
      fs.linkSync(tmp, file);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      // There is a key: replace it only when it is not one (of another length).
      if (readKey(file, uid) === null) fs.renameSync(tmp, file);
      return keyIn(dir, uid);
    }
    return { key };
  } catch (e) {
    return { refused: `${file} cannot be made (${(e as NodeJS.ErrnoException).code ?? 'error'})` };
  } finally {
    fs.rmSync(tmp, { force: true });
  }
}

/**
 * `data` in a new file `file`, readable by its owner alone: created exclusively, so that nothing
 * planted under that name (a link, a FIFO, another's file) is followed, opened or written. The
 * name holds this process's id, and this process writes one file at a time, so what lies there
 * already is an earlier process's leftover: removed first (a link itself, never its target).
 */
export function writeNew(file: string, data: Buffer): void {
  fs.rmSync(file, { force: true });
  const fd = fs.openSync(
    file,
    fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_EXCL | fs.constants.O_NOFOLLOW,
    0o600,
  );
  try {
    for (let at = 0; at < data.length; ) at += fs.writeSync(fd, data, at);
  } finally {
    fs.closeSync(fd);
  }
}
