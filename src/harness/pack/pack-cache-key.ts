/**
 * The key `pack`'s cache segments are signed with, and whether a cache folder may be used with it.
 *
 * The key is the user's, not the folder's: a secret made once in `$XDG_STATE_HOME/ctxbench/key`
 * (else `~/.local/state/ctxbench/key`), readable by its owner alone, and never inside the cache
 * folder. A key kept in the folder signs whatever travels with it: a folder restored from a CI
 * cache archive, unpacked by the user (so owner and mode checks pass), brings the key of whoever
 * made the archive, and with it entries they forged (counts of 0, outlines holding instructions).
 * With the key elsewhere, a copied, restored or planted folder's segments are simply not signed
 * with this user's key: a cold cache, never a wrong answer.
 *
 * Tying a key kept in the folder to the folder instead (its device, inode and owner recorded in
 * the key file) was weighed and not taken: the record travels in the archive and says whatever its
 * maker wrote, and inode numbers are reused and predictable (a fresh CI runner makes the same
 * folders in the same order), so a forger can match them. A secret the archive never holds cannot
 * be matched. The price: a cache restored on a new machine is cold until it is rebuilt there,
 * and a CI job keeps a warm cache only by keeping the key too, which trusts whoever can write
 * that CI cache (docs/reliability.md, "pack's cache").
 *
 * The key's folder is held to what the cache folder is (pack-cache-folder.ts): the user's, no one
 * else's to write, through no link another account owns. The key itself is opened without
 * following a link and without waiting on a pipe, its kind and owner checked on the open file
 * before a byte is read, and made exclusively; the first key made wins when packs race.
 */
import { createHmac, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileKind } from '../corpus/index.js';
import { me, notOurs, privateFolder, within, writeNew } from './pack-cache-folder.js';

const KEY_FILE = 'key';
const KEY_BYTES = 32;
/** What the secret signs here: segments of this format, so that it could sign other things apart. */
const PURPOSE = 'ctxbench pack cache segments 1';

/** Where the user's key lies: `$XDG_STATE_HOME/ctxbench`, else `~/.local/state/ctxbench`. */
export function keyDirOf(env: NodeJS.ProcessEnv = process.env): string {
  const xdg = env.XDG_STATE_HOME;
  const base = xdg !== undefined && path.isAbsolute(xdg) ? xdg : path.join(os.homedir(), '.local', 'state');
  return path.join(base, 'ctxbench');
}

/** The segments' signing key, or why the cache folder is not used. */
export type CacheFolder = { readonly key: Buffer } | { readonly refused: string };

/**
 * The cache folder `dir` made if missing and checked, and the user's key read or made; or why the
 * folder is not used. A key's folder inside the cache folder is refused: a copy of the cache would
 * carry the key, which is what keeping it apart prevents.
 */
export function openFolder(dir: string, env: NodeJS.ProcessEnv = process.env): CacheFolder {
  const uid = me();
  const folder = privateFolder(dir, uid);
  if (folder !== null) return { refused: folder };
  const keys = keyDirOf(env);
  if (within(keys, dir))
    return {
      refused: `the key's folder ${keys} is inside ${dir}, and would travel with a copy of it: give a cache folder apart from it`,
    };
  const kept = privateFolder(keys, uid);
  if (kept !== null) return { refused: kept };
  const secret = keyIn(keys, uid);
  if ('refused' in secret) return secret;
  return { key: segmentKey(secret.key) };
}

/** The key segments are signed with, from the user's secret. */
export const segmentKey = (secret: Buffer): Buffer => createHmac('sha256', secret).update(PURPOSE).digest();

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
    t.isFile() ? notOurs(t, uid, file, 0o077) : `${file} is ${fileKind(t)}, not a regular file`;
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

/** The key in `dir`: the one there, else a new one, readable by its owner alone; or why not. */
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
