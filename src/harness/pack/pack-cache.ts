/**
 * What a second `pack` of the same tree can reuse, kept on disk: token counts by the digest of the
 * text counted, and a file's outline, imports and declared identifiers by the digest of its text
 * and its language. Both depend on nothing else, so an edit to one file costs that file alone.
 *
 * Every key is a SHA-256 that also holds a version: the text of the modules that compute the value
 * and the pinned versions of the libraries they call (`versionOf`), so an entry made by other code
 * never applies. The folder holds segment files, each written whole (a temporary file renamed), so
 * a pack never reads half of another's. A segment is signed with an HMAC under the user's key,
 * kept outside the folder (pack-cache-key.ts): a segment that is truncated, corrupted, or signed
 * by anyone else (a folder copied or restored from another machine or account) is not parsed at
 * all, and is removed, told in one line; an entry of the wrong shape is dropped. A bad cache is a
 * cold one, never an error, and never changes what `pack` prints. A folder or key that someone
 * else could have written is not used at all (pack-cache-folder.ts).
 *
 * The folder is bounded (`CACHE_BOUND` bytes): when a pack's new segment would take it over, or
 * when it holds more than `MAX_SEGMENTS`, the pack writes one segment of the entries in use, the
 * ones it used first, then the most recent, as many as fit in half the bound, and removes the
 * segments it read. Packs running at once each saw the folder as it was before any of them wrote,
 * so after its segment is in place every pack lists the folder again and removes the least
 * recently used segments past the bound (`evict`): whichever pack ends last lists every segment
 * written, so the folder ends within the bound however the packs interleave, with no lock to go
 * stale. What a pack prints never depends on it: an entry is a value its key determines.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { countTokensBeside, memoCounts } from '../corpus/index.js';
import type { BlobMemo, Facts } from '../ingest/index.js';
import { type Entry, entriesOf, listFolder, readBounded, touch, writeSegment } from './pack-cache-files.js';
import { openFolder } from './pack-cache-key.js';
import { versionsNow } from './pack-cache-versions.js';

/** The bytes the cache folder may hold. */
export const CACHE_BOUND = 64 * 1024 * 1024;
/** Segments beyond this are merged, so that a cache read stays a few files. */
export const MAX_SEGMENTS = 16;

interface Segment {
  readonly file: string;
  readonly bytes: number;
}

/** The counts and facts a pack reuses and adds, and the folder they are kept in (or none). */
export class PackCache implements BlobMemo {
  /** Every entry known, by key; the newest segment's first when two hold one key. */
  private readonly entries = new Map<string, Entry>();
  /** Keys this pack used or made, in that order. */
  private readonly used = new Set<string>();
  private readonly made = new Set<string>();
  /** The segments read and signed, and every segment file seen (damaged or past the bound too). */
  private readonly segments: Segment[] = [];
  private readonly seen: Segment[] = [];
  private readonly dir: string | null;
  private readonly key: Buffer | null;
  private readonly bound: number;
  /** The bytes of files other packs are writing now: they count against the bound. */
  private writing = 0;
  private hits = 0;
  /** Segments whole but not signed with this user's key: removed, and told. */
  private foreignSegments = 0;
  /** Why the folder asked for is not used (pack-cache-folder.ts), for the one line `pack` tells. */
  readonly refused: string | null;

  private constructor(
    dir: string | null,
    key: Buffer | null,
    bound = CACHE_BOUND,
    refused: string | null = null,
  ) {
    this.dir = dir;
    this.key = key;
    this.bound = bound;
    this.refused = refused;
  }

  /** A cache kept in memory only: what one pack counts twice it counts once, and nothing is written. */
  static memory(): PackCache {
    return new PackCache(null, null);
  }

  /**
   * The cache kept in `dir`, read now. A folder that may not be used (`refused` says why), or that
   * cannot be made or read, is a cache kept in memory: `pack` prints the same without one.
   * `bound`: the bytes the folder may hold.
   */
  static open(dir: string, bound = CACHE_BOUND): PackCache {
    let folder: ReturnType<typeof openFolder>;
    try {
      folder = openFolder(dir);
    } catch (e) {
      folder = { refused: `${dir} cannot be read (${(e as NodeJS.ErrnoException).code ?? 'error'})` };
    }
    if ('refused' in folder) return new PackCache(null, null, bound, folder.refused);
    const cache = new PackCache(dir, folder.key, bound);
    cache.read();
    return cache;
  }

  /** The segments this pack removed for not being signed with the user's key (copied or restored ones). */
  get foreign(): number {
    return this.foreignSegments;
  }

  /** What this pack found in the cache and added to it. */
  get stats(): { readonly hits: number; readonly added: number; readonly segments: number } {
    return { hits: this.hits, added: this.made.size, segments: this.segments.length };
  }

  private digest(kind: 'c' | 'f', version: string, tag: string, text: string): string {
    return createHash('sha256').update(`${kind}\0${version}\0${tag}\0`).update(text).digest('hex');
  }

  private take(key: string): Entry | undefined {
    const e = this.entries.get(key);
    if (e !== undefined) {
      if (!this.made.has(key) && !this.used.has(key)) this.hits++;
      this.used.add(key);
    }
    return e;
  }

  /** Keep `e` under `key`; its value back. */
  private put<E extends Entry>(key: string, e: E): E[1] {
    this.entries.set(key, e);
    this.made.add(key);
    this.used.add(key);
    return e[1];
  }

  /** The key of `text`'s count in `tokenizer`, and the count when it is known. */
  private counted(tokenizer: string, text: string): { readonly key: string; readonly n: number | undefined } {
    const key = this.digest('c', versionsNow().counts, tokenizer, text);
    const e = this.take(key);
    return { key, n: e?.[0] === 'c' ? e[1] : undefined };
  }

  /** `text` in `tokenizer`'s tokens: the cached count, else `count`'s, kept. */
  count(tokenizer: string, text: string, count: (text: string) => number): number {
    const { key, n } = this.counted(tokenizer, text);
    return n ?? this.put(key, ['c', count(text)]);
  }

  /**
   * `text` in the pool's tokens (o200k), counted on the worker thread unless known (BlobFacts'
   * `ahead`): a known count is not sent, and one counted there is kept.
   */
  ahead(text: string): Promise<number> {
    const { key, n } = this.counted('o200k', text);
    return n !== undefined
      ? Promise.resolve(n)
      : countTokensBeside('o200k', text).then((made) => this.put(key, ['c', made]));
  }

  /** Whether the facts of `text` in `language` are known (so the grammars need not load). */
  knowsFacts(language: string, text: string): boolean {
    return this.entries.get(this.digest('f', versionsNow().facts, language, text))?.[0] === 'f';
  }

  /** A file's facts: the cached ones, else `make`'s, kept. */
  facts(language: string, text: string, make: () => Facts): Facts {
    const key = this.digest('f', versionsNow().facts, language, text);
    const e = this.take(key);
    if (e?.[0] === 'f') return e[1];
    const facts = make();
    this.put(key, ['f', facts]);
    return facts;
  }

  /**
   * Every segment of the folder that is whole and signed, newest first, up to the bound. What a
   * killed pack was writing is removed; what a running one is writing counts against the bound.
   */
  private read(): void {
    let listed: ReturnType<typeof listFolder>;
    try {
      listed = listFolder(this.dir as string);
    } catch {
      return;
    }
    this.writing = listed.writing;
    let total = 0;
    for (const f of listed.segments) {
      if (total + f.size > this.bound) {
        this.seen.push({ file: f.file, bytes: f.size });
        continue;
      }
      total += f.size;
      const bytes = readBounded(f.file, f.size);
      const entries = bytes === null ? null : entriesOf(bytes, this.key as Buffer);
      if (entries === null && bytes !== null) {
        // Whole, yet not this user's: it never will be, so it goes rather than count for ever.
        this.foreignSegments++;
        fs.rmSync(f.file, { force: true });
        continue;
      }
      this.seen.push({ file: f.file, bytes: f.size });
      if (entries === null) continue;
      this.segments.push({ file: f.file, bytes: f.size });
      for (const [k, e] of entries) if (!this.entries.has(k)) this.entries.set(k, e);
    }
  }

  /**
   * Keep what this pack made: one new segment, and a merge when the folder would pass its bound
   * or its count of segments. Nothing is written when nothing was made; the segments read are
   * touched, so the least recently used go first. Never throws: a cache that cannot be written
   * is simply not kept.
   */
  save(): void {
    if (this.dir === null) return;
    try {
      const now = new Date();
      for (const s of this.segments) touch(s.file, now);
      if (this.made.size === 0) return;
      const fresh = [...this.made].map((k) => [k, ...(this.entries.get(k) as Entry)]);
      const held = this.seen.reduce((n, s) => n + s.bytes, this.writing);
      const merge = this.seen.length + 1 > MAX_SEGMENTS || held + bytesOf(fresh) > this.bound;
      if (!merge) {
        this.write(fresh);
        this.evict();
        return;
      }
      // The entries in use first (this pack's), then the rest, newest first, within half the bound.
      const order = [...this.used, ...[...this.entries.keys()].filter((k) => !this.used.has(k))];
      const kept: unknown[] = [];
      let size = 2;
      for (const k of order) {
        const item = [k, ...(this.entries.get(k) as Entry)];
        const n = Buffer.byteLength(JSON.stringify(item)) + 1;
        if (size + n > this.bound / 2 - this.writing) break;
        kept.push(item);
        size += n;
      }
      const wrote = this.write(kept);
      // Every other segment seen goes: the merged one holds what was worth keeping of them.
      for (const s of this.seen) if (s.file !== wrote) fs.rmSync(s.file, { force: true });
      this.evict();
    } catch {
      // not kept: the next pack counts again
    }
  }

  /**
   * The folder listed again, now that this pack's segment is in place, and the least recently used
   * segments past the bound removed (what other packs are writing counts against it). Packs that
   * run it at once remove from one order, so removing twice is removing once.
   */
  private evict(): void {
    const { segments, writing } = listFolder(this.dir as string);
    let total = writing;
    for (const f of segments)
      if (total + f.size > this.bound) fs.rmSync(f.file, { force: true });
      else total += f.size;
  }

  private write(items: readonly unknown[]): string {
    return writeSegment(this.dir as string, items, this.key as Buffer);
  }
}

const bytesOf = (items: readonly unknown[]): number => Buffer.byteLength(JSON.stringify(items)) + 200;

/**
 * The one way a pack uses its cache: the one kept in `folder` (null: one in memory, which writes
 * nothing), every count this thread makes going through it while `use` runs (the strategy's
 * pricing included: a count it knows needs no vocabulary), and what was made saved when `use`
 * ends, however it ends.
 */
export async function withPackCache<T>(
  folder: string | null,
  use: (cache: PackCache) => Promise<T>,
): Promise<T> {
  const cache = folder === null ? PackCache.memory() : PackCache.open(folder);
  const forget = folder === null ? () => {} : memoCounts((t, text, count) => cache.count(t, text, count));
  try {
    return await use(cache);
  } finally {
    forget();
    cache.save();
  }
}
