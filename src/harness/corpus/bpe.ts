/**
 * Real token counts of text, by OpenAI's BPE vocabularies shipped inside gpt-tokenizer (offline):
 * what a model would actually be sent. Nothing here registers anything, so a worker thread
 * (`token-audit.ts`) can count with it alone.
 */
import { createRequire } from 'node:module';
import type { RealTokens, Tokenizer } from '../types.js';
import { TOKENIZERS } from '../vocabulary.js';
import { parts } from './piece-cuts.js';

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
 * The longest run of letters, spaces or punctuation counted as one piece. gpt-tokenizer merges the
 * byte pairs of a piece in time quadratic in its length (a file of 400,000 `x` took two minutes),
 * and a repository's files are anybody's to write; no text a person reads has such runs.
 */
export const LONGEST_RUN = 1000;

/**
 * The longest stretch of characters of two kinds that one piece can hold, counted in one part:
 * punctuation and combining marks (cl100k's `[^\s\p{L}\p{N}]+`), and line breaks and `/` (what
 * o200k's punctuation takes after it, `[\r\n/]*`). Kinds alternating escape LONGEST_RUN: `!` and
 * 64,000 `/\n` were one o200k piece, 18 s to count. Twice LONGEST_RUN, so that only such a stretch
 * is cut: a run of one kind within it is cut at LONGEST_RUN before.
 */
export const LONGEST_PIECE = 2 * LONGEST_RUN;

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
 * Where to cut `text` so that no run of one kind (letters and marks, white space, other
 * characters) is longer than LONGEST_RUN characters: every LONGEST_RUN characters into such a run,
 * never inside a character. Digits are never cut: the vocabularies group them by three from the
 * start of their run. And where a stretch of punctuation and marks, or of line breaks and `/`,
 * reaches LONGEST_PIECE characters since the last cut. Empty for text with no such run or stretch,
 * which is then counted whole, as before.
 */
export function longRunCuts(text: string): number[] {
  const cuts: number[] = [];
  let length = 0;
  let kind: Kind | undefined;
  let glued = 0;
  let tail = 0;
  for (let i = 0; i < text.length; ) {
    const k = kindOf(text, i);
    const run = k === 'mark' ? 'letter' : k;
    if (run !== kind) {
      kind = run;
      length = 0;
    }
    const code = text.charCodeAt(i);
    glued = k === 'other' || k === 'mark' ? glued + 1 : 0;
    tail = code === 10 || code === 13 || code === 47 ? tail + 1 : 0;
    const longRun = length > 0 && run !== 'digit' && length % LONGEST_RUN === 0;
    if (longRun || glued > LONGEST_PIECE || tail > LONGEST_PIECE) {
      cuts.push(i);
      glued = Math.min(glued, 1);
      tail = Math.min(tail, 1);
    }
    length++;
    i += (text.codePointAt(i) ?? 0) > 0xffff ? 2 : 1;
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
 * LONGEST_RUN, or a stretch longer than LONGEST_PIECE, counted in parts of that length (a few
 * tokens off the whole's count, the same however the text is counted, here or in the audit).
 * Text longer than PART is counted in parts cut where the count cannot change
 * (`piece-cuts.ts`). Through the memo when one is set.
 */
export function countTokens(tokenizer: Tokenizer, text: string): number {
  return memo === null ? counted(tokenizer, text) : memo(tokenizer, text, () => counted(tokenizer, text));
}

function counted(tokenizer: Tokenizer, text: string): number {
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
