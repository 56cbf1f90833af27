/**
 * The segment files of `pack`'s cache folder (pack-cache.ts; the folder is pack-cache-folder.ts's,
 * the key pack-cache-key.ts's): each a line of head (a magic word, the body's length, the
 * HMAC-SHA-256 of the body under the user's key) and a JSON body, written whole. Nothing here trusts what it
 * reads: a file that is not a regular one, not whole, or not signed with the key is nothing, and
 * an entry of another shape is dropped.
 */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Facts } from '../ingest/index.js';
import { writeNew } from './pack-cache-folder.js';

const MAGIC = 'ctxbench-pack-cache 1';
/** A segment's name: the SHA-256 of its bytes. */
export const SEGMENT = /^[0-9a-f]{64}\.seg$/;
/** A file being written (a segment or the key), named with the writer's process id. */
const WRITING = /^\.(?:[0-9a-f]{64}\.seg|key)\.(\d+)\.tmp$/;
/**
 * How old a file being written must be before it is taken for a killed pack's, whatever its
 * process id says (another container's pack may share the folder): writing one takes well under a
 * second.
 */
const STALE_MS = 10 * 60 * 1000;

/** Whether a name is one of the files a cache folder or the key's holds. */
export const isCacheFile = (name: string): boolean =>
  name === 'key' || SEGMENT.test(name) || WRITING.test(name);

const sign = (body: Buffer, key: Buffer): Buffer => createHmac('sha256', key).update(body).digest();

/** A segment's body parsed, or null for one that is not whole, not signed with `key`, or not a JSON array. */
function segmentItems(bytes: Buffer, key: Buffer): unknown[] | null {
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

const HEX = /^[0-9a-f]{64}$/;

/** Whether a parsed value is a Facts (an entry of another shape is a miss). */
function isFacts(x: unknown): x is Facts {
  if (typeof x !== 'object' || x === null || Array.isArray(x)) return false;
  const f = x as Record<string, unknown>;
  return (
    Object.keys(f).length === 3 &&
    (f.outline === null || typeof f.outline === 'string') &&
    typeof f.declared === 'string' &&
    Array.isArray(f.specifiers) &&
    f.specifiers.every((s) => typeof s === 'string')
  );
}

/** A cached value: a token count, or a file's facts. */
export type Entry = readonly ['c', number] | readonly ['f', Facts];

/** A segment's entries of the right shapes, or null for one that is not whole, signed with `key` and JSON. */
export function entriesOf(bytes: Buffer, key: Buffer): [string, Entry][] | null {
  const items = segmentItems(bytes, key);
  if (items === null) return null;
  const out: [string, Entry][] = [];
  for (const item of items) {
    if (!Array.isArray(item) || item.length !== 3 || typeof item[0] !== 'string' || !HEX.test(item[0]))
      continue;
    const [k, kind, v] = item as [string, unknown, unknown];
    if (kind === 'c' && Number.isSafeInteger(v) && (v as number) >= 0) out.push([k, ['c', v as number]]);
    else if (kind === 'f' && isFacts(v)) out.push([k, ['f', v]]);
  }
  return out;
}

/** One signed segment of `items`, written whole: a temporary file, then a rename; its path. */
export function writeSegment(dir: string, items: readonly unknown[], key: Buffer): string {
  const body = Buffer.from(JSON.stringify(items), 'utf8');
  const mac = sign(body, key).toString('hex');
  const data = Buffer.concat([Buffer.from(`${MAGIC} ${body.length} ${mac}\n`, 'latin1'), body]);
  const file = path.join(dir, `${createHash('sha256').update(data).digest('hex')}.seg`);
  const tmp = path.join(dir, `.${path.basename(file)}.${process.pid}.tmp`);
  try {
    writeNew(tmp, data);
    fs.renameSync(tmp, file);
  } finally {
    fs.rmSync(tmp, { force: true });
  }
  return file;
}

/**
 * A regular file's bytes, at most `size` of them, never through a link and never waiting on a
 * pipe; null when it cannot be read.
 */
export function readBounded(file: string, size: number): Buffer | null {
  let fd: number | undefined;
  try {
    fd = fs.openSync(file, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW | fs.constants.O_NONBLOCK);
    if (!fs.fstatSync(fd).isFile()) return null;
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
 * Whether `name` in the folder is a file some pack was writing, and whether that pack is gone: its
 * process is not running, or the file is older than any write takes. A killed pack's leftovers
 * count against the folder's bound until they are removed. Null for a name of another kind.
 */
export function leftover(name: string, mtimeMs: number, now: number): { readonly gone: boolean } | null {
  const m = WRITING.exec(name);
  if (m === null) return null;
  const pid = Number(m[1]);
  // This process writes synchronously, so a file under its own id is an earlier process's.
  const other = pid !== process.pid && pid > 0 && pid < 2 ** 31;
  return { gone: !other || now - mtimeMs > STALE_MS || !running(pid) };
}

/** A segment file of the folder: its path, bytes and time of last use. */
export interface Found {
  readonly file: string;
  readonly size: number;
  readonly mtime: number;
}

/**
 * The folder's segment files, most recently used first (the name breaks a tie, so that every
 * pack orders them alike), and the bytes of the files running packs are writing; what killed
 * packs were writing is removed on the way. Only regular files named as segments count.
 */
export function listFolder(dir: string): { readonly segments: Found[]; readonly writing: number } {
  const segments: Found[] = [];
  let writing = 0;
  const now = Date.now();
  for (const n of fs.readdirSync(dir)) {
    const file = path.join(dir, n);
    try {
      const s = fs.lstatSync(file);
      const w = leftover(n, s.mtimeMs, now);
      if (w?.gone) fs.rmSync(file, { force: true });
      else if (w !== null) writing += s.size;
      else if (SEGMENT.test(n) && s.isFile()) segments.push({ file, mtime: s.mtimeMs, size: s.size });
    } catch {
      // removed by another pack meanwhile
    }
  }
  segments.sort((a, b) => b.mtime - a.mtime || (a.file < b.file ? -1 : 1));
  return { segments, writing };
}

/** Whether a process of this id runs (one of another user's answers EPERM: it runs). */
function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}
