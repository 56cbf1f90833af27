/**
 * Real token counts of text, by OpenAI's BPE vocabularies shipped inside gpt-tokenizer (offline):
 * what a model would actually be sent. Nothing here registers anything, so a worker thread
 * (`token-audit.ts`) can count with it alone.
 */
import { createRequire } from 'node:module';
import type { RealTokens, Tokenizer } from '../types.js';
import { TOKENIZERS } from '../vocabulary.js';

type Encoding = typeof import('gpt-tokenizer/encoding/o200k_base');

// Loading a vocabulary takes a large part of a second: each is loaded when it first counts, not
// when this module is imported, so registering the counters costs nothing until one is used.
// `require` is what can load it at that moment, inside a synchronous count.
const load = createRequire(import.meta.url);
const encodings = new Map<Tokenizer, Encoding>();

// Content is data: a special token's spelling (`<|endoftext|>`) is counted as the text it is,
// never refused and never read as a control token.
const PLAIN = { disallowedSpecial: new Set<string>() };

/**
 * The longest run of letters, spaces or punctuation counted as one piece. gpt-tokenizer merges the
 * byte pairs of a piece in time quadratic in its length (a file of 400,000 `x` took two minutes),
 * and a repository's files are anybody's to write; no text a person reads has such runs.
 */
export const LONGEST_RUN = 1000;

type Kind = 'letter' | 'digit' | 'space' | 'other';

const ASCII_KIND: readonly Kind[] = Array.from({ length: 128 }, (_, c) => {
  const ch = String.fromCharCode(c);
  return /[A-Za-z]/.test(ch) ? 'letter' : /[0-9]/.test(ch) ? 'digit' : /\s/.test(ch) ? 'space' : 'other';
});

/** The kind of the character at `at` (a code point, one or two code units). */
function kindOf(text: string, at: number): Kind {
  const code = text.charCodeAt(at);
  if (code < 128) return ASCII_KIND[code] as Kind;
  const ch = String.fromCodePoint(text.codePointAt(at) ?? code);
  return /[\p{L}\p{M}]/u.test(ch)
    ? 'letter'
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
 * start of their run. Empty for text with no such run, which is then counted whole, as before.
 */
export function longRunCuts(text: string): number[] {
  const cuts: number[] = [];
  let length = 0;
  let kind: Kind | undefined;
  for (let i = 0; i < text.length; ) {
    const k = kindOf(text, i);
    if (k !== kind) {
      kind = k;
      length = 0;
    } else if (k !== 'digit' && length % LONGEST_RUN === 0) cuts.push(i);
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
 * LONGEST_RUN counted in parts of that length (a few tokens off the whole run's count, the same
 * however the text is counted, here or in the audit). Through the memo when one is set.
 */
export function countTokens(tokenizer: Tokenizer, text: string): number {
  return memo === null ? counted(tokenizer, text) : memo(tokenizer, text, () => counted(tokenizer, text));
}

function counted(tokenizer: Tokenizer, text: string): number {
  let encoding = encodings.get(tokenizer);
  if (encoding === undefined) {
    encoding = load(`gpt-tokenizer/encoding/${tokenizer}_base`) as Encoding;
    encodings.set(tokenizer, encoding);
  }
  const cuts = longRunCuts(text);
  if (cuts.length === 0) return encoding.countTokens(text, PLAIN);
  let count = 0;
  let from = 0;
  for (const to of [...cuts, text.length]) {
    count += encoding.countTokens(text.slice(from, to), PLAIN);
    from = to;
  }
  return count;
}

/** The vocabularies this thread has loaded so far, in `TOKENIZERS` order. */
export const loadedVocabularies = (): Tokenizer[] => TOKENIZERS.filter((t) => encodings.has(t));

/** `text` in every real tokenizer's tokens, keyed in `TOKENIZERS` order. */
export const realTokens = (text: string): RealTokens =>
  Object.fromEntries(TOKENIZERS.map((t) => [t, countTokens(t, text)])) as Record<Tokenizer, number>;
