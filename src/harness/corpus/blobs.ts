/**
 * A corpus's contents stored once by digest: a candidate may name its text by `content_sha256`
 * instead of carrying it as `content`, and the text is the file `blobs/<first two>/<digest>` of the
 * folder that holds the candidates file. Every reader resolves such a record before anything else
 * sees it, so the compiler, the strategies and the checks meet ordinary candidates. A corpus whose
 * cases share most of their files (a repository's trees at many commits) keeps each version once.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { isPlainObject, quote } from '../../compiler/index.js';
import { recordName } from '../errors.js';
import { MAX_TEXT_BYTES } from './input-files.js';

/** The folder of a corpus that holds its blobs. */
export const BLOBS_DIR = 'blobs';
/** The candidate field that names a blob. */
export const DIGEST_FIELD = 'content_sha256';

const DIGEST = /^[0-9a-f]{64}$/;

/** The SHA-256 of a text's UTF-8 bytes, in lower-case hex: a blob's name. */
export const contentDigest = (text: string): string =>
  createHash('sha256').update(text, 'utf8').digest('hex');

/** A blob's place, relative to its corpus folder. */
export const blobPath = (digest: string): string => path.join(BLOBS_DIR, digest.slice(0, 2), digest);

/** What resolving one record found wrong. */
export interface BlobProblem {
  readonly record: string;
  readonly field: string;
  readonly message: string;
}

/**
 * The blobs of one folder, each read and checked against its name once, however many cases name
 * it: the cases of a corpus then share one string per version.
 */
export class BlobStore {
  readonly dir: string;
  private readonly texts = new Map<string, string | { readonly problem: string }>();

  constructor(folder: string) {
    this.dir = path.join(folder, BLOBS_DIR);
  }

  /** The text a digest names, or why there is none (the blob's path named). */
  text(digest: string): string | { readonly problem: string } {
    let found = this.texts.get(digest);
    if (found === undefined) {
      found = this.read(digest);
      this.texts.set(digest, found);
    }
    return found;
  }

  private read(digest: string): string | { readonly problem: string } {
    const file = path.join(this.dir, digest.slice(0, 2), digest);
    let bytes: Buffer;
    try {
      if (fs.statSync(file).size > MAX_TEXT_BYTES)
        return { problem: `blob ${file} is larger than any text (${MAX_TEXT_BYTES} bytes)` };
      bytes = fs.readFileSync(file);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code ?? 'unreadable';
      return { problem: `blob ${file} ${code === 'ENOENT' ? 'is missing' : `cannot be read (${code})`}` };
    }
    const actual = createHash('sha256').update(bytes).digest('hex');
    if (actual !== digest) return { problem: `blob ${file} is corrupt: its bytes hash to ${actual}` };
    try {
      // The bytes are the text's own: a leading byte-order mark is part of it.
      return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
    } catch {
      return { problem: `blob ${file} is not UTF-8` };
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
    const text = store.text(digest);
    if (typeof text !== 'string') return problem(`${DIGEST_FIELD}: ${text.problem}`);
    return { ...rest, content: text };
  });
  return { raw: wrapped ? { ...raw, candidates: resolved } : resolved, problems };
}
