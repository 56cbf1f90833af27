/**
 * BM25 as Pyserini scores it: Anserini's DefaultEnglishAnalyzer (Lucene's StandardTokenizer,
 * EnglishPossessiveFilter, LowerCaseFilter, StopFilter with Lucene's English stop words,
 * PorterStemFilter) and Lucene 9's BM25Similarity at Pyserini's defaults (k1 0.9, b 0.4), with
 * Lucene's float arithmetic and its one-byte document lengths, so that ranks and ties fall where
 * Lucene's do. The query is a bag of words: one clause per analysed token, repeats included.
 *
 * Parts from packages: the word boundaries of UAX #29 (unicode-default-word-boundary, the rules
 * StandardTokenizer's grammar implements) and Martin Porter's stemmer (stemmer, the algorithm of
 * Lucene's PorterStemmer). Where they differ from Lucene, the difference is corrected here and
 * named beside the correction. Not reproduced: StandardTokenizer keeps a run of Thai, Lao, Khmer
 * or Myanmar letters as one token, where the default UAX #29 rules split it by character.
 */
import { stemmer } from 'stemmer';
import { findBoundaries } from 'unicode-default-word-boundary';

/** Pyserini's BM25 defaults (its `LuceneSearcher`), as Lucene's floats. */
export const BM25_K1 = 0.9;
export const BM25_B = 0.4;
/** Lucene's `IndexSearcher.maxClauseCount`: a query of more tokens throws. */
export const MAX_CLAUSES = 1024;
/** StandardTokenizer's default `maxTokenLength`: a longer token is split at this length. */
const MAX_TOKEN_LENGTH = 255;

/** Lucene's `EnglishAnalyzer.ENGLISH_STOP_WORDS_SET`. */
export const ENGLISH_STOP_WORDS: ReadonlySet<string> = new Set(
  'a an and are as at be but by for if in into is it no not of on or such that the their then there these they this to was will with'.split(
    ' ',
  ),
);

/** A segment StandardTokenizer emits: one holding a letter, a digit or an emoji. */
const WORDLIKE = /[\p{L}\p{N}\p{Extended_Pictographic}]/u;
const APOSTROPHES = new Set(["'", '\u2019', '\uFF07']);

/**
 * LowerCaseFilter: Java's `Character.toLowerCase`, code point by code point. JavaScript's
 * `toLowerCase` agrees except where it applies a special mapping (U+0130 becomes two code points,
 * a final capital sigma becomes the final form), so those texts go one code point at a time.
 */
function lowerCase(token: string): string {
  if (!/[\u0130\u03a3]/.test(token)) return token.toLowerCase();
  let out = '';
  for (const ch of token) out += ch === '\u0130' ? 'i' : ch.toLowerCase();
  return out;
}

/**
 * PorterStemFilter. The package follows Porter's published algorithm; Lucene's PorterStemmer
 * also applies step 1a to a word that is nothing but the suffix ("ies" gives "i", "sses" gives
 * "ss"), which the package's patterns, needing a letter before the suffix, do not.
 */
function porter(token: string): string {
  if (token === 'ies') return 'i';
  if (token === 'sses') return 'ss';
  return stemmer(token);
}

/**
 * ASCII text splits by a pattern that is UAX #29 restricted to ASCII, which the package's
 * general segmenter (a property lookup per character) needs twenty times longer for: letters,
 * digits and `_` join each other (WB5, WB8 to WB10, WB13a, WB13b), `:` `.` `'` join two letters
 * (WB6, WB7) and `,` `;` `.` `'` two digits (WB11, WB12); every other ASCII character breaks.
 * test/strategies/bm25-analyzer.test.ts checks the two agree.
 */
const ASCII_WORD =
  /[A-Za-z0-9_]+(?:(?:(?<=[A-Za-z])[:.'](?=[A-Za-z])|(?<=[0-9])[,;.'](?=[0-9]))[A-Za-z0-9_]+)*/g;
const NOT_ASCII = /[^\p{ASCII}]/u;
/** ASCII whitespace: a word boundary on both sides whatever surrounds it (WB3a, WB3b, WB999). */
const CHUNK = /[^\t\n\v\f\r ]+/g;

/** A chunk's word segments, by the pattern when it is ASCII, else by the package's UAX #29. */
export function segments(chunk: string): string[] {
  if (!NOT_ASCII.test(chunk)) return chunk.match(ASCII_WORD) ?? [];
  const out: string[] = [];
  let start = -1;
  for (const end of findBoundaries(chunk)) {
    if (start >= 0) out.push(chunk.slice(start, end));
    start = end;
  }
  return out;
}

/** The analysed terms of a text, in order, repeats kept: what Lucene indexes and queries. */
export function analyze(text: string): string[] {
  const terms: string[] = [];
  const emit = (segment: string): void => {
    if (!WORDLIKE.test(segment)) return;
    if (segment.length <= MAX_TOKEN_LENGTH) {
      const term = analyzeToken(segment);
      if (term !== null) terms.push(term);
      return;
    }
    // StandardTokenizer emits the first maxTokenLength characters and scans the rest again.
    emit(segment.slice(0, MAX_TOKEN_LENGTH));
    for (const s of segments(segment.slice(MAX_TOKEN_LENGTH))) emit(s);
  };
  for (const [chunk] of text.matchAll(CHUNK)) for (const s of segments(chunk)) emit(s);
  return terms;
}

/**
 * Analysed tokens by their text: a repository repeats its words, and stemming is the dear part.
 * It outlives a call in a warm process (the MCP server's), so it is bounded in entries and in
 * characters, and holds copies: a token is cut from a document, and V8 keeps the whole document
 * alive while a piece cut from it lives, so a memo of the pieces would keep every document that
 * brought a new word (issue 47).
 */
const memo = new Map<string, string | null>();
const MEMO_LIMIT = 1_000_000;
/** Keys' and terms' characters; a token of code is about 10 (this repository's 9.5): entries bind first. */
const MEMO_CHARS = 32_000_000;
let memoChars = 0;

/** `s` in a string of its own, tied to no text it was cut from: a JSON round trip is exact. */
const detached = (s: string): string => JSON.parse(JSON.stringify(s)) as string;

/** EnglishPossessiveFilter, LowerCaseFilter, StopFilter and PorterStemFilter on one token. */
function analyzeToken(cut: string): string | null {
  const known = memo.get(cut);
  if (known !== undefined) return known;
  // The term is made from the copy, so it holds no document either.
  const token = detached(cut);
  const n = token.length;
  const possessive = n >= 2 && APOSTROPHES.has(token[n - 2] as string) && /[sS]/.test(token[n - 1] as string);
  const lower = lowerCase(possessive ? token.slice(0, n - 2) : token);
  const term = ENGLISH_STOP_WORDS.has(lower) ? null : porter(lower);
  const chars = n + (term?.length ?? 0);
  if (memo.size >= MEMO_LIMIT || memoChars + chars > MEMO_CHARS) {
    memo.clear();
    memoChars = 0;
  }
  memo.set(token, term);
  memoChars += chars;
  return term;
}

/** Lucene's SmallFloat.longToInt4: four significant bits, order kept. */
function longToInt4(i: number): number {
  const bits = 32 - Math.clz32(i);
  if (bits < 4) return i;
  const shift = bits - 4;
  return (Math.floor(i / 2 ** shift) & 0x07) | ((shift + 1) << 3);
}

const int4ToLong = (i: number): number => {
  const bits = i & 0x07;
  const shift = (i >>> 3) - 1;
  return shift === -1 ? bits : (bits | 0x08) * 2 ** shift;
};

/** The small lengths SmallFloat.intToByte4 keeps exact: 255 minus the code of 2^31 - 1. */
const FREE_VALUES = 255 - longToInt4(2 ** 31 - 1);

/** The length Lucene keeps of a document of `n` terms: its norm byte, decoded (intToByte4, byte4ToInt). */
export function storedLength(n: number): number {
  return n < FREE_VALUES ? n : FREE_VALUES + int4ToLong(longToInt4(n - FREE_VALUES));
}

/** A document as the index holds it: its term frequencies and its length in terms. */
export interface Indexed {
  readonly tf: ReadonlyMap<string, number>;
  readonly length: number;
}

export function indexed(text: string): Indexed {
  const tf = new Map<string, number>();
  const terms = analyze(text);
  for (const t of terms) tf.set(t, (tf.get(t) ?? 0) + 1);
  return { tf, length: terms.length };
}

/**
 * The query's terms as Pyserini's `search` sends them after SWE-bench's `search` loop (its
 * bm25_retrieval.py): a text of more than MAX_CLAUSES tokens makes Lucene throw, and the loop cuts
 * the text to round(0.8 x its length) characters (code points, as Python counts) and tries again.
 */
export function queryTerms(text: string): string[] {
  let chars = Array.from(text);
  let terms = analyze(text);
  while (terms.length > MAX_CLAUSES) {
    chars = chars.slice(0, Math.round(chars.length * 0.8));
    terms = analyze(chars.join(''));
  }
  return terms;
}

const f = Math.fround;

/**
 * Each document's BM25 score against the query, as Lucene 9 computes it in floats: idf =
 * ln(1 + (N - n + 0.5) / (n + 0.5)) over the N documents that have a term; a query term repeated
 * q times weighs q x idf (BooleanQuery merges repeated clauses by adding their boosts); per term
 * w - w / (1 + tf x 1 / (k1 x (1 - b + b x dl / avgdl))), dl the document's stored (one-byte)
 * length and avgdl the mean of the true lengths; the terms' scores summed in double and rounded
 * to a float. A document that holds no query term scores 0 (Lucene does not return it).
 */
export function bm25Scores(docs: readonly Indexed[], query: readonly string[]): number[] {
  const counted = docs.filter((d) => d.length > 0);
  const n = counted.length;
  if (n === 0) return docs.map(() => 0);
  const avgdl = f(counted.reduce((s, d) => s + d.length, 0) / n);
  const [k1, b] = [f(BM25_K1), f(BM25_B)];
  const normInverse = new Map<number, number>();
  const inverse = (length: number): number => {
    const stored = storedLength(length);
    let v = normInverse.get(stored);
    if (v === undefined) {
      v = f(1 / f(k1 * f(f(1 - b) + f(f(b * stored) / avgdl))));
      normInverse.set(stored, v);
    }
    return v;
  };
  const boosts = new Map<string, number>();
  for (const t of query) boosts.set(t, (boosts.get(t) ?? 0) + 1);
  const weights: [string, number][] = [];
  for (const [term, boost] of [...boosts].sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0))) {
    const df = counted.reduce((s, d) => s + (d.tf.has(term) ? 1 : 0), 0);
    if (df === 0) continue;
    weights.push([term, f(boost * f(Math.log(1 + (n - df + 0.5) / (df + 0.5))))]);
  }
  return docs.map((d) => {
    let score = 0;
    for (const [term, w] of weights) {
      const tf = d.tf.get(term);
      if (tf !== undefined) score += f(w - f(w / f(1 + f(tf * inverse(d.length)))));
    }
    return f(score);
  });
}
