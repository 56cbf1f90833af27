/**
 * The files of `pack`'s cache folder (pack-cache.ts): segments, each a line of head (a magic
 * word, the body's length, the HMAC-SHA-256 of the body under the folder's key) and a JSON body,
 * written whole; and the key. Nothing here trusts what it reads: a file that is not a regular one,
 * not whole, or not signed with the key is nothing.
 */
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

const MAGIC = 'ctxbench-pack-cache 1';
/** A segment's name: the SHA-256 of its bytes. */
export const SEGMENT = /^[0-9a-f]{64}\.seg$/;
const KEY_FILE = 'key';

const sign = (body: Buffer, key: Buffer): Buffer => createHmac('sha256', key).update(body).digest();

/** A segment's body parsed, or null for one that is not whole, not signed with `key`, or not a JSON array. */
export function segmentItems(bytes: Buffer, key: Buffer): unknown[] | null {
  const nl = bytes.indexOf(10);
  if (nl < 0) return null;
  const head = bytes.subarray(0, nl).toString('latin1').split(' ');
  const body = bytes.subarray(nl + 1);
  if (head.length !== 4 || `${head[0]} ${head[1]}` !== MAGIC || head[2] !== String(body.length)) return null;
  const mac = Buffer.from(head[3] ?? '', 'hex');
  const want = sign(body, key);
  if (mac.length !== want.length || !timingSafeEqual(mac, want)) return null;
  try {
    const parsed: unknown = JSON.parse(body.toString('utf8'));
    return Array.isArray(parsed) ? parsed : null;
  } catch {
    return null;
  }
}

/** One signed segment of `items`, written whole: a temporary file, then a rename; its path. */
export function writeSegment(dir: string, items: readonly unknown[], key: Buffer): string {
  const body = Buffer.from(JSON.stringify(items), 'utf8');
  const mac = sign(body, key).toString('hex');
  const data = Buffer.concat([Buffer.from(`${MAGIC} ${body.length} ${mac}\n`, 'latin1'), body]);
  const file = path.join(dir, `${createHash('sha256').update(data).digest('hex')}.seg`);
  const tmp = path.join(dir, `.${path.basename(file)}.${process.pid}.tmp`);
  fs.writeFileSync(tmp, data, { mode: 0o600, flag: 'wx' });
  fs.renameSync(tmp, file);
  return file;
}

/** A regular file's bytes, at most `size` of them, never through a link; null when it cannot be read. */
export function readBounded(file: string, size: number): Buffer | null {
  let fd: number | undefined;
  try {
    fd = fs.openSync(file, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW);
    const buf = Buffer.alloc(size);
    let got = 0;
    while (got < size) {
      const n = fs.readSync(fd, buf, got, size - got, got);
      if (n === 0) break;
      got += n;
    }
    return got === size ? buf : null;
  } catch {
    return null;
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

/** A file's times set to `at`, so the least recently used segments go first; nothing if it is gone. */
export function touch(file: string, at: Date): void {
  try {
    fs.utimesSync(file, at, at);
  } catch {
    // removed meanwhile
  }
}

/**
 * The folder's signing key: 32 bytes made once, readable by its owner alone. A key of another
 * length is made again (every segment then reads as foreign, and the cache starts cold).
 */
export function keyIn(dir: string): Buffer {
  const file = path.join(dir, KEY_FILE);
  const existing = readBounded(file, 32);
  if (existing !== null && fs.lstatSync(file).size === 32) return existing;
  const key = randomBytes(32);
  const tmp = path.join(dir, `.${KEY_FILE}.${process.pid}.tmp`);
  fs.writeFileSync(tmp, key, { mode: 0o600 });
  // Another pack may have made one meanwhile: the later rename wins, and segments signed with the
  // other key read as foreign once.
  fs.renameSync(tmp, file);
  return key;
}
