/**
 * Real token counts of text, by OpenAI's BPE vocabularies shipped inside gpt-tokenizer (offline):
 * what a model would actually be sent. Nothing here registers anything, so a worker thread
 * (`token-audit.ts`) can count with it alone.
 */
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import type { RealTokens, Tokenizer } from '../types.js';
import { TOKENIZERS } from '../vocabulary.js';
import { parts, safeCut } from './piece-cuts.js';

type Encoding = typeof import('gpt-tokenizer/encoding/o200k_base');

/**
 * The size of each vocabulary's merge cache, in entries. gpt-tokenizer remembers the tokens of each
 * piece it merges; full (100,000 entries by default), it forgets the oldest entry at every new
 * piece, and V8 finds the oldest by stepping over the deleted slots at the front of its Map, ever
 * more of them as it churns: 4 MB of distinct words took 37 s where 4 MB of 5,000 words took 0.7 s.
 * Here the cache is emptied before it could fill, so it never forgets one entry at a time: an
 * entry is a piece counted since the cache was last emptied, of at least one character and at
 * least one token, so the entries are never more than the smaller of the characters and the
 * tokens counted since (`Vocabulary.held`). A million: a word is merged again once per 750,000
 * tokens or more (1.6 to 3 million characters of text), and the cache of a text of distinct
 * words holds at most about 280,000 of them (60 MB, where the default's 100,000 took 28).
 */
export const MERGE_CACHE = 1_000_000;

/**
 * The most characters of a long text counted in one call of the library: a quarter of the cache,
 * so that the cache is emptied when the tokens counted since near its size, not at every part.
 */
export const PART = MERGE_CACHE / 4;

interface Vocabulary {
  readonly encoding: Encoding;
  /** At least the entries its merge cache holds: per text counted since it was last emptied, the
   * smaller of its characters and its tokens. */
  held: number;
}

// Loading a vocabulary takes a large part of a second: each is loaded when it first counts, not
// when this module is imported, so registering the counters costs nothing until one is used.
// `require` is what can load it at that moment, inside a synchronous count.
const load = createRequire(import.meta.url);
const encodings = new Map<Tokenizer, Vocabulary>();

function vocabulary(tokenizer: Tokenizer): Vocabulary {
  let v = encodings.get(tokenizer);
  if (v === undefined) {
    const encoding = load(`gpt-tokenizer/encoding/${tokenizer}_base`) as Encoding;
    encoding.setMergeCacheSize(MERGE_CACHE);
    encoding.clearMergeCache();
    v = { encoding, held: 0 };
    encodings.set(tokenizer, v);
  }
  return v;
}

// Content is data: a special token's spelling (`<|endoftext|>`) is counted as the text it is,
// never refused and never read as a control token.
const PLAIN = { disallowedSpecial: new Set<string>() };

/**
 * The most UTF-8 bytes of a run of letters, spaces or punctuation counted as one part.
 * gpt-tokenizer merges a piece byte pair by byte pair, in time quadratic in its bytes (a file of
 * 400,000 `x` took two minutes), and a repository's files are anybody's to write; no text a person
 * reads has such runs. Bytes, not characters: a CJK character is three bytes and an emoji four, so a
 * bound in characters let their pieces cost up to sixteen times an ASCII piece's. In ASCII a byte
 * is a character, so ASCII text is cut where it was when this bound counted characters.
 */
export const LONGEST_RUN_BYTES = 1000;

/**
 * The most UTF-8 bytes of a stretch of characters of two kinds that one piece can hold, counted in
 * one part: punctuation and combining marks (cl100k's `[^\s\p{L}\p{N}]+`, emoji with variation
 * selectors among them), and line breaks and `/` (what o200k's punctuation takes after it,
 * `[\r\n/]*`). Kinds alternating escape LONGEST_RUN_BYTES: `!` and 64,000 `/\n` were one o200k
 * piece, 18 s to count. Twice LONGEST_RUN_BYTES, so that only such a stretch is cut: a run of one
 * kind within it is cut at LONGEST_RUN_BYTES before.
 */
export const LONGEST_PIECE_BYTES = 2 * LONGEST_RUN_BYTES;

type Kind = 'letter' | 'mark' | 'digit' | 'space' | 'other';

const ASCII_KIND: readonly Kind[] = Array.from({ length: 128 }, (_, c) => {
  const ch = String.fromCharCode(c);
  return /[A-Za-z]/.test(ch) ? 'letter' : /[0-9]/.test(ch) ? 'digit' : /\s/.test(ch) ? 'space' : 'other';
});

/** The kind of the character at `at` (a code point, one or two code units). */
function kindOf(text: string, at: number): Kind {
  const code = text.charCodeAt(at);
  if (code < 128) return ASCII_KIND[code] as Kind;
  const ch = String.fromCodePoint(text.codePointAt(at) ?? code);
  return /\p{L}/u.test(ch)
    ? 'letter'
    : /\p{M}/u.test(ch)
      ? 'mark'
      : /\p{N}/u.test(ch)
        ? 'digit'
        : /\s/u.test(ch)
          ? 'space'
          : 'other';
}

/**
 * The UTF-8 bytes of the character at `at`, as the library encodes it: four for a surrogate
 * pair (two code units), three for a lone surrogate (encoded as U+FFFD).
 */
export function bytesAt(text: string, at: number): number {
  const code = text.charCodeAt(at);
  if (code < 0x80) return 1;
  if (code < 0x800) return 2;
  if (code >= 0xd800 && code <= 0xdbff) {
    const low = text.charCodeAt(at + 1);
    if (low >= 0xdc00 && low <= 0xdfff) return 4;
  }
  return 3;
}

/**
 * Where to cut `text` so that no run of one kind (letters and marks, white space, other
 * characters) is longer than LONGEST_RUN_BYTES: before the character that would take the run
 * past it since the run began or was last cut, never inside a character. Digits are never cut:
 * the vocabularies group them by three from the start of their run. And where a stretch of
 * punctuation and marks, or of line breaks and `/`, would pass LONGEST_PIECE_BYTES since the last
 * cut. Empty for text with no such run or stretch, which is then counted whole, as before.
 */
export function longRunCuts(text: string): number[] {
  const cuts: number[] = [];
  let kind: Kind | undefined;
  let run = 0;
  let glued = 0;
  let tail = 0;
  for (let i = 0; i < text.length; ) {
    const k = kindOf(text, i);
    const r = k === 'mark' ? 'letter' : k;
    if (r !== kind) {
      kind = r;
      run = 0;
    }
    const bytes = bytesAt(text, i);
    const code = text.charCodeAt(i);
    glued = k === 'other' || k === 'mark' ? glued + bytes : 0;
    // Line breaks and `/` are one byte each.
    tail = code === 10 || code === 13 || code === 47 ? tail + 1 : 0;
    const longRun = run > 0 && r !== 'digit' && run + bytes > LONGEST_RUN_BYTES;
    if (longRun || glued > LONGEST_PIECE_BYTES || tail > LONGEST_PIECE_BYTES) {
      cuts.push(i);
      // A run is cut from where it began or was last cut, whatever else was cut within it.
      if (longRun) run = 0;
      glued = Math.min(glued, bytes);
      tail = Math.min(tail, 1);
    }
    run += bytes;
    i += bytes === 4 ? 2 : 1;
  }
  return cuts;
}

/**
 * What stands between a count and the vocabulary while a command keeps counts it made before
 * (`pack`'s cache): given the tokenizer, the text and how to count it, the count.
 */
export type CountMemo = (tokenizer: Tokenizer, text: string, count: () => number) => number;

let memo: CountMemo | null = null;

/**
 * Count through `m` in this thread until the returned function is called: a count `m` knows skips
 * the vocabulary, which then need not load at all. One at a time: a second is an error.
 */
export function memoCounts(m: CountMemo): () => void {
  if (memo !== null) throw new Error('counts are already remembered by another memo');
  memo = m;
  return () => {
    if (memo === m) memo = null;
  };
}

/**
 * `text` in one tokenizer's tokens: the library's count, piece by piece; a run longer than
 * LONGEST_RUN_BYTES, or a stretch longer than LONGEST_PIECE_BYTES, counted in parts of at most
 * that many bytes (a few tokens off the whole's count, the same however the text is counted, here
 * or in the audit).
 * Text longer than PART is counted in parts cut where the count cannot change
 * (`piece-cuts.ts`). Counted chunk by chunk (`chunkEnds`), each chunk's count remembered by its
 * digest; through the memo when one is set.
 */
export function countTokens(tokenizer: Tokenizer, text: string): number {
  return memo === null ? counted(tokenizer, text) : memo(tokenizer, text, () => counted(tokenizer, text));
}

/**
 * The most chunks whose counts a vocabulary remembers (a digest and a number each, some 100 bytes):
 * emptied whole when full, which changes no count, only how soon it is made again.
 */
export const CHUNK_MEMORY = 200_000;
const chunkCounts = new Map<Tokenizer, Map<string, number>>();

/**
 * Where `text` is cut into chunks whose counts add up to the whole's: before each line that follows
 * a line of ASCII punctuation and spaces alone (an empty line, a bundle's `---` separator, a
 * closing brace) where `safeCut` holds. Such a cut also starts a run (the line begins with no
 * white space, `/` or digit-run to continue), so `longRunCuts` finds in each chunk the cuts it
 * finds there in the whole. The rule reads only the two lines around a cut: a file's text is cut
 * alike wherever it stands, so the cells of a study, which hold the same files in many bundles,
 * count each chunk once.
 */
export function chunkEnds(text: string): number[] {
  const ends: number[] = [];
  let plain = true;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 10) {
      if (plain && i + 1 < text.length && safeCut(text, i + 1)) ends.push(i + 1);
      plain = true;
    } else if (plain && (c > 127 || (c >= 48 && c <= 57) || ((c | 32) >= 97 && (c | 32) <= 122)))
      plain = false;
  }
  ends.push(text.length);
  return ends;
}

function counted(tokenizer: Tokenizer, text: string): number {
  let memory = chunkCounts.get(tokenizer);
  if (memory === undefined) {
    memory = new Map();
    chunkCounts.set(tokenizer, memory);
  }
  let count = 0;
  let from = 0;
  for (const end of chunkEnds(text)) {
    const chunk = text.slice(from, end);
    from = end;
    const key = createHash('sha256').update(chunk).digest('base64');
    let n = memory.get(key);
    if (n === undefined) {
      n = countedWhole(tokenizer, chunk);
      if (memory.size >= CHUNK_MEMORY) memory.clear();
      memory.set(key, n);
    }
    count += n;
  }
  return count;
}

/** `text` counted with no chunk remembered: its long runs and stretches cut, then in parts. */
function countedWhole(tokenizer: Tokenizer, text: string): number {
  const v = vocabulary(tokenizer);
  const cuts = longRunCuts(text);
  if (cuts.length === 0 && text.length <= PART) return cached(v, text);
  let count = 0;
  let from = 0;
  for (const to of [...cuts, text.length]) {
    for (const part of parts(text, from, to, PART)) {
      const t = text.slice(from, part.end);
      count += part.long ? uncached(v, t) : cached(v, t);
      from = part.end;
    }
  }
  return count;
}

/**
 * `text`, of at most PART characters, counted with the merge cache, emptied first when its entries
 * and the text's characters (at least the entries the text can add) could pass its size.
 */
function cached(v: Vocabulary, text: string): number {
  if (v.held + text.length > MERGE_CACHE) {
    v.encoding.clearMergeCache();
    v.held = 0;
  }
  const n = v.encoding.countTokens(text, PLAIN);
  v.held += Math.min(n, text.length);
  return n;
}

/**
 * `text` longer than PART with no safe cut in reach (indented lines of punctuation alone, say),
 * counted with no merge cache: exact, and linear at the cost of merging every piece.
 */
function uncached(v: Vocabulary, text: string): number {
  v.encoding.setMergeCacheSize(0);
  try {
    return v.encoding.countTokens(text, PLAIN);
  } finally {
    v.encoding.setMergeCacheSize(MERGE_CACHE);
    v.held = 0;
  }
}

/** The vocabularies this thread has loaded so far, in `TOKENIZERS` order. */
export const loadedVocabularies = (): Tokenizer[] => TOKENIZERS.filter((t) => encodings.has(t));

/** `text` in every real tokenizer's tokens, keyed in `TOKENIZERS` order. */
export const realTokens = (text: string): RealTokens =>
  Object.fromEntries(TOKENIZERS.map((t) => [t, countTokens(t, text)])) as Record<Tokenizer, number>;
