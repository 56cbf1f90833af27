/**
 * Where a long text can be counted in parts without changing its count: positions at which both
 * vocabularies' split regexes (gpt-tokenizer's o200k and cl100k patterns) always end one piece and
 * start the next, and at which the part to the left splits as it does inside the whole. The count
 * of a text is the sum of its pieces' counts, so parts cut there add up to the whole's count in
 * both vocabularies. Checked against the regexes in test/harness/corpus/piece-cuts.test.ts.
 *
 * Why a cut at `i` (between code points a = before `i` and b = at `i`) is safe:
 * - The right part splits as the whole does from `i` on: no alternative looks behind (no
 *   lookbehind, no `^`), and every position matches one, so splitting restarts at each piece end.
 * - The left part splits as the whole does before `i` when `i` ends a piece and no alternative
 *   that the whole tried there passed or failed by looking at `i` itself: only `\s+(?!\S)` and
 *   cl100k's `\s+$` look ahead, and both need a whitespace `a`. Rules 1-3 have `a` not whitespace;
 *   rule 4 has a line break `a`, where `\s*[\r\n]+` (o200k) matches before the lookahead is tried,
 *   and cl100k's `\s+$` in the left part matches the same characters as `\s*[\r\n]` in the whole.
 * - `i` ends a piece:
 *   1. a letter, then no letter, mark or apostrophe: letters continue a piece only with letters,
 *      marks (o200k) or a contraction (`'s`, `'ll`, ...; o200k glues it to the word).
 *   2. a digit on one side only, `a` not whitespace: digits are pieces of digits alone (`\p{N}{1,3}`,
 *      grouped from the start of their run, so never cut inside one).
 *   3. not whitespace, then whitespace other than a line break: a piece of other characters takes
 *      only line breaks (and o200k `/`) after them, and a space or tab starts the next piece.
 *   4. a line break, then neither whitespace nor `/`: nothing continues a line break but more
 *      whitespace, or o200k's `[\r\n/]*` after punctuation.
 */

const LETTER = 1;
const MARK = 2;
const DIGIT = 3;
/** A line break: `\r` or `\n`, the only line breaks the regexes name. */
const BREAK = 4;
/** Whitespace other than a line break (`\s`). */
const SPACE = 5;
const APOSTROPHE = 6;
const SLASH = 7;
const OTHER = 8;
/** The low half of a surrogate pair: no cut is ever between the halves. */
const INSIDE = 9;

type Class = number;

function classOf(cp: number): Class {
  const ch = String.fromCodePoint(cp);
  if (/\p{L}/u.test(ch)) return LETTER;
  if (/\p{M}/u.test(ch)) return MARK;
  if (/\p{N}/u.test(ch)) return DIGIT;
  if (ch === '\r' || ch === '\n') return BREAK;
  if (/\s/u.test(ch)) return SPACE;
  return ch === "'" ? APOSTROPHE : ch === '/' ? SLASH : OTHER;
}

const ASCII: readonly Class[] = Array.from({ length: 128 }, (_, c) => classOf(c));

const isHigh = (c: number) => c >= 0xd800 && c <= 0xdbff;
const isLow = (c: number) => c >= 0xdc00 && c <= 0xdfff;

/** The class of the code point that starts at `i` (a lone surrogate is OTHER, as for the regexes). */
function startingAt(text: string, i: number): Class {
  const c = text.charCodeAt(i);
  if (c < 128) return ASCII[c] as Class;
  if (isLow(c) && i > 0 && isHigh(text.charCodeAt(i - 1))) return INSIDE;
  return classOf(text.codePointAt(i) ?? c);
}

/** The class of the code point that ends just before `i`. */
function endingAt(text: string, i: number): Class {
  const c = text.charCodeAt(i - 1);
  if (c < 128) return ASCII[c] as Class;
  if (isLow(c) && i > 1 && isHigh(text.charCodeAt(i - 2))) return classOf(text.codePointAt(i - 2) ?? c);
  return classOf(c);
}

/** Whether counting `text` as `text.slice(0, i)` and `text.slice(i)` gives the whole's count. */
export function safeCut(text: string, i: number): boolean {
  if (i <= 0 || i >= text.length) return false;
  const b = startingAt(text, i);
  if (b === INSIDE) return false;
  const a = endingAt(text, i);
  if (a === BREAK) return b !== SPACE && b !== BREAK && b !== SLASH;
  if (a === SPACE) return false;
  if (a === LETTER && b !== LETTER && b !== MARK && b !== APOSTROPHE) return true;
  return (a === DIGIT) !== (b === DIGIT) || b === SPACE;
}

/** One part of a text: where it ends, and whether it is longer than asked (no safe cut in reach). */
export interface Part {
  readonly end: number;
  readonly long: boolean;
}

/**
 * `text` from `from` to `to` in parts, cut only where `safeCut` holds: each part ends at the last
 * safe cut within `limit` characters of its start; where there is none, the part runs on to the
 * next safe cut (or `to`) and is `long`. Each character is looked at a bounded number of times.
 */
export function* parts(text: string, from: number, to: number, limit: number): Generator<Part> {
  while (to - from > limit) {
    let end = from + limit;
    while (end > from && !safeCut(text, end)) end--;
    if (end > from) {
      yield { end, long: false };
    } else {
      end = from + limit + 1;
      while (end < to && !safeCut(text, end)) end++;
      yield { end, long: true };
    }
    from = end;
  }
  if (to > from) yield { end: to, long: false };
}
