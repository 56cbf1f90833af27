/**
 * The digest a run's manifest records of its corpus folder and its ledger folder: SHA-256 over
 * `<file> <sha256>\n` for the folder's files, sorted by name, and its blob index when it has one
 * (the index names every blob by its digest, and every reader checks a blob's bytes against it,
 * so the index pins the blobs without reading the packs). Folders within are left out.
 *
 * The folder is often one a manifest names, and a manifest is anyone's text: `/proc/self/fd`, a
 * folder of FIFOs, links to `/dev/zero`, a million entries. So the digest lists in bounded memory,
 * looks at every entry before it reads any, and opens only regular files (a link is followed to
 * the file it leads to, as every corpus reader follows it), never one that could block, each read
 * no further than the size it measured. Anything that cannot be a corpus's or a ledger's file (a
 * FIFO, a socket, a device, a link to one or to nothing, a name that is not UTF-8, more than the
 * limits below), and a file that vanishes or changes while it is read, stops the digest with one
 * line saying so (exit 2); a folder of regular files gets the digest it always had.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { quote } from '../../compiler/index.js';
import { BLOB_INDEX, fileKind, MAX_TEXT_BYTES } from '../corpus/index.js';
import { InputError } from '../errors.js';
import { int } from '../format.js';

export interface DigestLimits {
  /** Entries the folder may hold, folders among them. */
  readonly entries: number;
  /** Bytes of one file. */
  readonly fileBytes: number;
  /** Bytes of all its files together. */
  readonly bytes: number;
}

/**
 * A corpus writes two files a case, so a million entries is far past any corpus that runs, yet
 * listed in a second and a few tens of MB. A file holds at most what any input may (one string:
 * docs/reliability.md, "Limits"); and since links and hard links let a folder name one file many
 * times, all of them together at most 4 GiB, more than a process holding a corpus could load, read
 * in seconds.
 */
export const DIGEST_LIMITS: DigestLimits = { entries: 1_000_000, fileBytes: MAX_TEXT_BYTES, bytes: 2 ** 32 };

/** Where a folder's name came from, for the line a refusal prints: the file, its field, why it is read. */
export interface NamedBy {
  readonly file: string;
  readonly field: string;
  readonly why?: string | undefined;
}

/**
 * The folder's digest. A folder that cannot be digested stops with one line (exit 2) naming the
 * file and field of `namedBy` when given (a manifest's `corpus.dir`), else the folder.
 */
export function corpusDigest(dir: string, namedBy?: NamedBy): string {
  const taken = folderDigest(dir);
  if (typeof taken !== 'object') return taken;
  if (namedBy === undefined) throw new InputError(dir, taken.problem);
  const why = namedBy.why === undefined ? '' : `: ${namedBy.why}`;
  throw new InputError(namedBy.file, `${namedBy.field} ${dir}: ${taken.problem}${why}`);
}

interface Problem {
  readonly problem: string;
}

/** A regular file to read (through a link when `link`), with its size when looked at. */
interface File {
  readonly name: string;
  readonly full: Buffer;
  readonly size: number;
  readonly link: boolean;
}

const codeOf = (e: unknown): string => (e as NodeJS.ErrnoException).code ?? 'unknown error';

const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** An entry's name as the corpus readers see it, or null for bytes that are not UTF-8. */
function nameOf(bytes: Buffer): string | null {
  try {
    return UTF8.decode(bytes);
  } catch {
    return null;
  }
}

/** What is at `full`, a link followed: a file to read, a folder, nothing (ENOENT, ENOTDIR), or what is wrong. */
function look(full: Buffer, shown: string): File | 'folder' | 'absent' | Problem {
  let own: fs.Stats;
  try {
    own = fs.lstatSync(full);
  } catch (e) {
    return ['ENOENT', 'ENOTDIR'].includes(codeOf(e))
      ? 'absent'
      : { problem: `${quote(shown)} cannot be looked at (${codeOf(e)})` };
  }
  const link = own.isSymbolicLink();
  let s = own;
  if (link)
    try {
      s = fs.statSync(full);
    } catch (e) {
      return { problem: `${quote(shown)} is a link that leads nowhere (${codeOf(e)})` };
    }
  if (s.isDirectory()) return 'folder';
  if (!s.isFile()) return { problem: `${quote(shown)} is ${link ? 'a link to ' : ''}${fileKind(s)}` };
  return { name: shown, full, size: s.size, link };
}

/**
 * The names of the folder's entries that are not folders by their listing, each byte a latin1
 * character (a name that is not UTF-8 is then named, not mangled, and a million names take a few
 * tens of MB), at most `limit` entries in all. What is inside a folder is never looked at, as the
 * digest leaves folders out.
 */
function listed(dir: string, limit: number): string[] | Problem {
  let d: fs.Dir;
  try {
    d = fs.opendirSync(dir, { encoding: 'latin1' });
  } catch (e) {
    return { problem: `cannot be listed (${codeOf(e)})` };
  }
  const names: string[] = [];
  let count = 0;
  try {
    for (let e = d.readSync(); e !== null; e = d.readSync()) {
      if (++count > limit)
        return { problem: `holds more than ${int(limit)} entries, more than a corpus or a ledger` };
      if (!e.isDirectory()) names.push(e.name);
    }
  } catch (e) {
    return { problem: `cannot be listed (${codeOf(e)})` };
  } finally {
    d.closeSync();
  }
  return names;
}

/** Every file to read, sorted by name, the blob index last; each looked at, none read yet. */
function filesOf(dir: string, limits: DigestLimits): File[] | Problem {
  const names = listed(dir, limits.entries);
  if (!Array.isArray(names)) return names;
  const root = Buffer.from(`${dir}${path.sep}`);
  const files: File[] = [];
  for (const latin1 of names) {
    const bytes = Buffer.from(latin1, 'latin1');
    const name = nameOf(bytes) ?? bytes.toString('utf8');
    const found = look(Buffer.concat([root, bytes]), name);
    if (found === 'folder') continue;
    if (found === 'absent') return { problem: `${quote(name)} vanished while the folder was read` };
    if ('problem' in found) return found;
    if (nameOf(bytes) === null) return { problem: `${quote(name)} has a name that is not UTF-8` };
    files.push(found);
  }
  files.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const index = look(Buffer.from(path.join(dir, BLOB_INDEX)), BLOB_INDEX);
  if (index === 'folder') return { problem: `${quote(BLOB_INDEX)} is a folder, not a file` };
  if (typeof index === 'object' && 'problem' in index) return index;
  if (index !== 'absent') files.push(index);
  return files;
}

const CHUNK = 1 << 20;

/**
 * The SHA-256 of a file looked at, read in chunks through a descriptor that cannot block (a FIFO
 * put in its place meanwhile is named, not waited on) and is a regular file of the size measured,
 * and no further than one byte past it: a file that grew or shrank is named.
 */
function fileHash(f: File, chunk: Buffer): string | Problem {
  const q = quote(f.name);
  let fd: number;
  try {
    const flags = fs.constants.O_RDONLY | fs.constants.O_NONBLOCK | (f.link ? 0 : fs.constants.O_NOFOLLOW);
    fd = fs.openSync(f.full, flags);
  } catch (e) {
    return { problem: `${q} cannot be opened (${codeOf(e)})` };
  }
  try {
    const s = fs.fstatSync(fd);
    if (!s.isFile() || s.size !== f.size) return { problem: `${q} changed while it was read` };
    const hash = createHash('sha256');
    let got = 0;
    for (;;) {
      const n = fs.readSync(fd, chunk, 0, Math.min(chunk.length, f.size + 1 - got), null);
      if (n === 0) break;
      got += n;
      if (got > f.size) return { problem: `${q} changed while it was read (it holds more than its size)` };
      hash.update(chunk.subarray(0, n));
    }
    return got < f.size ? { problem: `${q} changed while it was read (it ended early)` } : hash.digest('hex');
  } catch (e) {
    return { problem: `${q} cannot be read (${codeOf(e)})` };
  } finally {
    fs.closeSync(fd);
  }
}

/** The folder's digest, or what stops it; within `limits` of time and memory whatever the folder holds. */
export function folderDigest(dir: string, limits: DigestLimits = DIGEST_LIMITS): string | Problem {
  const files = filesOf(dir, limits);
  if (!Array.isArray(files)) return files;
  let bytes = 0;
  for (const f of files) {
    if (f.size > limits.fileBytes)
      return {
        problem: `${quote(f.name)} is ${int(f.size)} bytes, over the ${int(limits.fileBytes)} one input file may hold`,
      };
    bytes += f.size;
    if (bytes > limits.bytes)
      return { problem: `its files hold more than ${int(limits.bytes)} bytes, more than a digest reads` };
  }
  const chunk = Buffer.allocUnsafe(CHUNK);
  const digest = createHash('sha256');
  for (const f of files) {
    const hash = fileHash(f, chunk);
    if (typeof hash === 'object') return hash;
    digest.update(`${f.name} ${hash}\n`);
  }
  return digest.digest('hex');
}
