/**
 * A corpus's contents stored once by digest: a candidate may name its text by `content_sha256`
 * (the SHA-256 of its UTF-8 bytes) instead of carrying it as `content`. The texts lie end to end in
 * pack files, `blobs/pack-001.txt` and on, and `blobs/index.jsonl` says where each one is, a line a
 * text: `{"sha256", "pack", "offset", "bytes"}` (docs/formats.md). Every reader resolves such a
 * record before anything else sees it, so the compiler, the strategies and the checks meet ordinary
 * candidates; each text is checked against its digest when it is read. A corpus whose cases share
 * most of their files (a repository's trees at many commits) holds each version once, and in a
 * few files rather than one a version, which the disk would round up to a block each.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { isPlainObject, quote } from '../../compiler/index.js';
import { recordName } from '../errors.js';
import { MAX_TEXT_BYTES, readTextFile } from './input-files.js';
import { parseJson } from './json-text.js';

/** The folder of a corpus that holds its texts. */
export const BLOBS_DIR = 'blobs';
/** Where each text lies, relative to the corpus folder. */
export const BLOB_INDEX = `${BLOBS_DIR}/index.jsonl`;
/** The candidate field that names a text. */
export const DIGEST_FIELD = 'content_sha256';
/** A pack grows to about this many bytes before the next begins. */
export const PACK_BYTES = 256 * 1024 * 1024;

const DIGEST = /^[0-9a-f]{64}$/;
const PACK = /^pack-\d{3,}\.txt$/;

/** The SHA-256 of a text's UTF-8 bytes, in lower-case hex: a blob's name. */
export const contentDigest = (text: string): string =>
  createHash('sha256').update(text, 'utf8').digest('hex');

/** The name of the `n`th pack (from 1). */
export const packName = (n: number): string => `pack-${String(n).padStart(3, '0')}.txt`;

/** Where one text lies: a line of the index. */
export interface BlobPlace {
  readonly sha256: string;
  readonly pack: string;
  readonly offset: number;
  readonly bytes: number;
}

/** What resolving one record found wrong. */
export interface BlobProblem {
  readonly record: string;
  readonly field: string;
  readonly message: string;
}

type Found = string | { readonly problem: string };

const count = (v: unknown): v is number => Number.isSafeInteger(v) && (v as number) >= 0;

/** An index line's place, or what is wrong with it. */
function placeOf(text: string): BlobPlace | string {
  const parsed = parseJson(text);
  if ('problem' in parsed) return parsed.problem;
  const o = parsed.value;
  if (!isPlainObject(o)) return `not a JSON object: ${quote(o)}`;
  if (typeof o.sha256 !== 'string' || !DIGEST.test(o.sha256))
    return `invalid sha256: ${quote(o.sha256)} (need 64 lower-case hex digits)`;
  if (typeof o.pack !== 'string' || !PACK.test(o.pack))
    return `invalid pack: ${quote(o.pack)} (need a pack's name, pack-001.txt)`;
  if (!count(o.offset)) return `invalid offset: ${quote(o.offset)} (need a whole number >= 0)`;
  if (!count(o.bytes) || o.bytes > MAX_TEXT_BYTES)
    return `invalid bytes: ${quote(o.bytes)} (need a whole number >= 0, at most ${MAX_TEXT_BYTES})`;
  return { sha256: o.sha256, pack: o.pack, offset: o.offset, bytes: o.bytes };
}

/**
 * The most characters of text a store keeps read: past it, it lets go of all it kept and begins
 * again. A study holds a few cases of a large corpus at a time (held-cases.ts), and the cases it
 * reads next share most texts with the ones before.
 */
export const BLOB_MEMORY = 128 * 1024 * 1024;

/**
 * The texts of one corpus folder, each read and checked against its digest once while it is kept
 * (BLOB_MEMORY), however many cases name it: the cases of a corpus then share one string per
 * version.
 */
export class BlobStore {
  readonly dir: string;
  readonly indexFile: string;
  private places: Map<string, BlobPlace> | undefined;
  /** What is wrong with the index itself, each once: `check` lists them. */
  readonly problems: { readonly line: string | undefined; readonly message: string }[] = [];
  private readonly texts = new Map<string, Found>();
  private kept = 0;

  constructor(folder: string) {
    this.dir = path.join(folder, BLOBS_DIR);
    this.indexFile = path.join(folder, BLOB_INDEX);
  }

  /** The index, read the first time a text is asked for; a bad line is a problem and is skipped. */
  private index(): Map<string, BlobPlace> {
    if (this.places !== undefined) return this.places;
    this.places = new Map();
    let text: string;
    try {
      text = readTextFile(this.indexFile);
    } catch (e) {
      this.problems.push({ line: undefined, message: (e as Error).message });
      return this.places;
    }
    for (const [k, line] of text.split('\n').entries()) {
      if (line.trim() === '') continue;
      const place = placeOf(line);
      const at = `line ${k + 1}`;
      if (typeof place === 'string') this.problems.push({ line: at, message: place });
      else if (this.places.has(place.sha256))
        this.problems.push({ line: at, message: `sha256 ${place.sha256} listed again` });
      else this.places.set(place.sha256, place);
    }
    return this.places;
  }

  /** Why the index cannot be read at all, or undefined: then no text can be, and that is one problem. */
  unreadable(): string | undefined {
    this.index();
    const whole = this.problems.find((p) => p.line === undefined);
    return whole === undefined ? undefined : `${this.indexFile}: ${whole.message}`;
  }

  /** The text a digest names, or why there is none (the pack and place named). */
  text(digest: string): Found {
    let found = this.texts.get(digest);
    if (found === undefined) {
      found = this.read(digest);
      const size = typeof found === 'string' ? found.length : 0;
      if (this.kept + size > BLOB_MEMORY) {
        this.texts.clear();
        this.kept = 0;
      }
      this.texts.set(digest, found);
      this.kept += size;
    }
    return found;
  }

  /** `text` without keeping it: for a reader that meets each text once (a corpus copied). */
  textOnce(digest: string): Found {
    return this.texts.get(digest) ?? this.read(digest);
  }

  private read(digest: string): Found {
    const place = this.index().get(digest);
    if (place === undefined) return { problem: `no blob ${digest} in ${this.indexFile}` };
    const file = path.join(this.dir, place.pack);
    const where = `blob ${digest} (${file}, ${place.bytes} bytes at ${place.offset})`;
    const bytes = Buffer.alloc(place.bytes);
    let read = 0;
    try {
      // A corpus is anyone's folder: a pack that is a FIFO would block a plain open, and a device
      // (a link to /dev/zero) is no pack. Neither is read.
      const fd = fs.openSync(file, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK);
      try {
        const kind = fs.fstatSync(fd);
        if (!kind.isFile()) return { problem: `${where}: the pack is not a file` };
        while (read < place.bytes) {
          const n = fs.readSync(fd, bytes, read, place.bytes - read, place.offset + read);
          if (n === 0) break;
          read += n;
        }
      } finally {
        fs.closeSync(fd);
      }
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code ?? 'unreadable';
      return {
        problem: `${where}: ${code === 'ENOENT' ? 'the pack is missing' : `cannot be read (${code})`}`,
      };
    }
    if (read < place.bytes) return { problem: `${where}: the pack ends before it` };
    const actual = createHash('sha256').update(bytes).digest('hex');
    if (actual !== digest) return { problem: `${where} is corrupt: its bytes hash to ${actual}` };
    try {
      // The bytes are the text's own: a leading byte-order mark is part of it.
      return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
    } catch {
      return { problem: `${where} is not UTF-8` };
    }
  }
}

/** Whether a candidates document names any blob: only then is a store opened. */
export function namesBlobs(raw: unknown): boolean {
  const list = isPlainObject(raw) ? raw.candidates : raw;
  return Array.isArray(list) && list.some((c) => isPlainObject(c) && Object.hasOwn(c, DIGEST_FIELD));
}

/**
 * A candidates document (`{"candidates": [...]}` or a bare list) with every `content_sha256`
 * replaced by the `content` its blob holds; the records that name none are the same objects.
 * A record that cannot be resolved is listed in `problems` and read as if its content were empty,
 * so that one bad blob is one problem, not also a missing field.
 */
export function resolveBlobs(
  raw: unknown,
  store: BlobStore,
): { readonly raw: unknown; readonly problems: readonly BlobProblem[] } {
  const wrapped = isPlainObject(raw);
  const list = wrapped ? raw.candidates : raw;
  if (!Array.isArray(list)) return { raw, problems: [] };
  const problems: BlobProblem[] = [];
  const unreadable = store.unreadable();
  const resolved = list.map((entry: unknown, k) => {
    if (!isPlainObject(entry) || !Object.hasOwn(entry, DIGEST_FIELD)) return entry;
    const { [DIGEST_FIELD]: digest, ...rest } = entry;
    const problem = (message: string) => {
      problems.push({ record: recordName('candidates', k, entry), field: DIGEST_FIELD, message });
      return { content: '', ...rest };
    };
    if (Object.hasOwn(entry, 'content'))
      return problem(`content and ${DIGEST_FIELD} both given (a candidate has one or the other)`);
    if (typeof digest !== 'string' || !DIGEST.test(digest))
      return problem(`invalid ${DIGEST_FIELD}: ${quote(digest)} (need 64 lower-case hex digits)`);
    if (unreadable !== undefined) {
      // One problem for the file, not one a record: no record's blob can be found.
      if (problems.length > 0) return { content: '', ...rest };
      return problem(`${DIGEST_FIELD}: no blob can be read: ${unreadable}`);
    }
    const text = store.text(digest);
    if (typeof text !== 'string') return problem(`${DIGEST_FIELD}: ${text.problem}`);
    return { ...rest, content: text };
  });
  return { raw: wrapped ? { ...raw, candidates: resolved } : resolved, problems };
}
