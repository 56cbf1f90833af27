/**
 * Long runs and stretches are cut by their UTF-8 bytes (bpe.ts, LONGEST_RUN_BYTES and
 * LONGEST_PIECE_BYTES): gpt-tokenizer merges a piece byte by byte, so a bound in characters let a
 * piece of CJK (three bytes a character) or of emoji with variation selectors (seven bytes to two)
 * cost many times an ASCII piece of as many characters. These check the cuts' structure against the
 * library's own split patterns, never a clock, and that text within the bounds is counted whole.
 */
import fc from 'fast-check';
import { countTokens as cl100k } from 'gpt-tokenizer/encoding/cl100k_base';
import { countTokens as o200k } from 'gpt-tokenizer/encoding/o200k_base';
import { CL100K_TOKEN_SPLIT_REGEX, O200K_TOKEN_SPLIT_REGEX } from 'gpt-tokenizer/encodingParams/constants';
import { describe, expect, it } from 'vitest';
import {
  bytesAt,
  LONGEST_PIECE_BYTES,
  LONGEST_RUN_BYTES,
  longRunCuts,
  realTokens,
} from '../../../src/harness/corpus/bpe.js';
import { runs } from '../../helpers/arbitrary.js';

const plain = { disallowedSpecial: new Set<string>() };
const utf8 = (t: string) => Buffer.byteLength(t, 'utf8');

/** `text` cut where `longRunCuts` says. */
function partsOf(text: string): string[] {
  const starts = [0, ...longRunCuts(text)];
  return starts.map((from, k) => text.slice(from, starts[k + 1] ?? text.length));
}

/** The longest piece, in UTF-8 bytes, that either vocabulary's split pattern makes of `text`. */
function longestPiece(text: string): number {
  let most = 0;
  for (const pattern of [O200K_TOKEN_SPLIT_REGEX, CL100K_TOKEN_SPLIT_REGEX])
    for (const [piece] of text.matchAll(pattern)) most = Math.max(most, utf8(piece));
  return most;
}

/** No two parts meet between the two halves of a surrogate pair. */
const whole = (parts: string[]) =>
  parts.every(
    (p, k) => k === 0 || !(/[\ud800-\udbff]$/.test(parts[k - 1] as string) && /^[\udc00-\udfff]/.test(p)),
  );

describe('a run of characters of more than one byte', () => {
  it.each([
    ['Cyrillic letters', '\u0436', 2],
    ['CJK letters', '\u6f22', 3],
    ['ideographic spaces', '\u3000', 3],
    ['astral CJK letters', '\u{20000}', 4],
    ['emoji', '\u{1F600}', 4],
  ])('of %s is cut into parts of at most LONGEST_RUN_BYTES bytes, between characters', (_k, ch, bytes) => {
    expect(bytesAt(ch, 0)).toBe(bytes);
    const parts = partsOf(ch.repeat(100_000));
    const full = Math.floor(LONGEST_RUN_BYTES / bytes) * bytes;
    // Each part but the last holds as many whole characters as the bound allows.
    for (const p of parts.slice(0, -1)) expect(utf8(p)).toBe(full);
    expect(utf8(parts.at(-1) as string)).toBeLessThanOrEqual(full);
    expect(whole(parts)).toBe(true);
    expect(parts.join('')).toBe(ch.repeat(100_000));
  });

  it('is whole up to the bound, and cut once just past it', () => {
    const within = `${'\u6f22'.repeat(Math.floor(LONGEST_RUN_BYTES / 3))}.`;
    expect(longRunCuts(within)).toEqual([]);
    expect(longRunCuts(`\u6f22${within}`)).toEqual([Math.floor(LONGEST_RUN_BYTES / 3)]);
  });
});

describe('emoji with variation selectors, one cl100k piece', () => {
  // U+FE0F is a mark: cl100k's `[^\s\p{L}\p{N}]+` takes emoji and selectors alike in one piece.
  const text = Array.from(
    { length: 6000 },
    (_, k) => `${String.fromCodePoint(0x1f600 + (k % 80))}\ufe0f`,
  ).join('');

  it('are counted in parts of at most LONGEST_PIECE_BYTES bytes', () => {
    const parts = partsOf(text);
    expect(parts.length).toBeGreaterThan(utf8(text) / LONGEST_PIECE_BYTES);
    for (const p of parts) expect(utf8(p)).toBeLessThanOrEqual(LONGEST_PIECE_BYTES);
    expect(whole(parts)).toBe(true);
    const sum = (count: (t: string, o: typeof plain) => number) =>
      parts.reduce((n, t) => n + count(t, plain), 0);
    expect(realTokens(text)).toEqual({ o200k: sum(o200k), cl100k: sum(cl100k) });
  });
});

/** Characters of one to four bytes that the split patterns treat apart. */
const HOSTILE = [
  'x',
  '!',
  '/',
  '\n',
  ' ',
  '7',
  '\u0301',
  '\ufe0f',
  '\u0436',
  '\u2500',
  '\u6f22',
  '\u3000',
  '\u{1F600}',
  '\u{20000}',
  '\u{E0100}',
  '\ud800',
];

describe('whatever the characters', () => {
  it('no part holds a piece longer than a stretch and its line breaks', () => {
    // Long repeats of each character, in any order: runs and stretches of every kind and width.
    const arb = fc.array(fc.tuple(fc.constantFrom(...HOSTILE), fc.integer({ min: 1, max: 3000 })), {
      maxLength: 12,
    });
    fc.assert(
      fc.property(arb, (spans) => {
        const text = spans.map(([ch, n]) => ch.repeat(n)).join('');
        const parts = partsOf(text);
        expect(parts.join('')).toBe(text);
        expect(whole(parts)).toBe(true);
        // A stretch of punctuation and marks, then o200k's `[\r\n/]*` after it, and the space before.
        for (const p of parts) expect(longestPiece(p)).toBeLessThanOrEqual(2 * LONGEST_PIECE_BYTES + 1);
      }),
      { seed: 20260447, numRuns: runs(60, 600) },
    );
  });
});

describe('text within the bounds', () => {
  // Prose of several scripts, code and emoji: every piece far shorter than either bound.
  const prose = [
    'The quick brown fox jumps over the lazy dog; naïve café déjà vu.',
    '汉字是世界上最古老的文字之一，至今已有六千多年的历史。',
    'Съешь же ещё этих мягких французских булок, да выпей чаю.',
    'ひらがなとカタカナと漢字を混ぜて書きます。',
    'Thumbs up \u{1F44D}\u{1F3FD}, heart \u2764\ufe0f, family \u{1F468}\u200d\u{1F469}\u200d\u{1F467}.',
    'const answer = items.map((x) => x * 2).filter(Boolean); // 42',
    '\u0645\u0631\u062d\u0628\u064b\u0627 \u0628\u0643\u0645',
  ].join('\n');

  it('is counted as the library counts it, with no cut', () => {
    const text = prose.repeat(200);
    expect(longRunCuts(text)).toEqual([]);
    expect(realTokens(text)).toEqual({ o200k: o200k(text, plain), cl100k: cl100k(text, plain) });
  });

  it('of runs just within each bound is counted whole', () => {
    const run = '\u6f22'.repeat(Math.floor(LONGEST_RUN_BYTES / 3));
    const stretch = '\u2764\ufe0f'.repeat(Math.floor(LONGEST_PIECE_BYTES / 6));
    const text = `${run} ${stretch} ${prose}`;
    expect(longRunCuts(text)).toEqual([]);
    expect(realTokens(text)).toEqual({ o200k: o200k(text, plain), cl100k: cl100k(text, plain) });
  });
});
