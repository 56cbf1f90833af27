/**
 * The cuts that long text is counted in parts at (piece-cuts.ts): checked against gpt-tokenizer's
 * own count of the whole text, in both vocabularies, on text mixing what the split regexes treat
 * apart: letters of several scripts and cases, marks, contractions, digit runs, punctuation, `/`,
 * every kind of whitespace and line break, astral characters and lone surrogates.
 */
import fc from 'fast-check';
import { countTokens as cl100k } from 'gpt-tokenizer/encoding/cl100k_base';
import { countTokens as o200k } from 'gpt-tokenizer/encoding/o200k_base';
import { describe, expect, it } from 'vitest';
import { chunkEnds, countTokens, PART } from '../../../src/harness/corpus/bpe.js';
import { parts, safeCut } from '../../../src/harness/corpus/piece-cuts.js';
import { runs } from '../../helpers/arbitrary.js';

const SEED = 20260447;
const plain = { disallowedSpecial: new Set<string>() };
const VOCABULARIES = { o200k: (t: string) => o200k(t, plain), cl100k: (t: string) => cl100k(t, plain) };

/** What the split regexes treat apart, each drawn as often as the others. */
const CLASSES: Readonly<Record<string, readonly string[]>> = {
  // Cases (o200k splits `HTTPServer` by case), scripts, precomposed and combining letters.
  letters: ['word', 'Word', 'WORD', 'HTTPServer', 'x', 'ß', 'naïve', 'e\u0301', 'λόγος', 'Привет', 'مرحبا'],
  scripts: ['नमस्ते', 'שָׁלוֹם', '漢字', '한국어', '\u{1D400}', '\u{20000}'],
  marks: ['\u0301', '\u0903', '\u20dd'],
  // The apostrophe o200k glues to a word as a contraction, and one it does not.
  apostrophes: ["'", "'s", "'S", "'ll", "'LL", "'re", "'ve", "'d", "'t", '\u2019'],
  // Grouped by three from the start of a run, of any script.
  digits: ['0', '12', '123', '4567', '\u0663', '\u00b2', '\u00bd', '\u216b'],
  // A special token's spelling is plain text here.
  punctuation: ['!', '.', ',', '-', '(', '}', '_', '\\', '\u2026', '*/', '<|endoftext|>'],
  // o200k's punctuation takes `/` after its line breaks.
  slashes: ['/', '//'],
  // The lookahead of `\s+(?!\S)`, and whitespace that is not a line break to the regexes.
  spaces: [' ', '  ', '\t', '\u00a0', '\u3000', '\v', '\f', '\u2028', '\u0085'],
  breaks: ['\n', '\r\n', '\r', '\n\n', ' \n'],
  // Astral and joined emoji, and surrogates alone.
  astral: [
    '\u{1F600}',
    '\u{1F44D}\u{1F3FD}',
    '\u{1F468}\u200d\u{1F469}',
    '\u{1F1EB}\u{1F1F7}',
    '\ud800',
    '\udc00',
  ],
};
const FRAGMENTS = Object.values(CLASSES).flat();

const text = (maxLength: number) =>
  fc
    .array(fc.oneof(...Object.values(CLASSES).map((c) => fc.constantFrom(...c))), { maxLength })
    .map((f) => f.join(''));

describe(`cuts that keep the count (fast-check seed ${SEED})`, () => {
  it('at every safe cut, the two parts count as the whole does, in both vocabularies', () => {
    fc.assert(
      fc.property(text(14), (t) => {
        for (let i = 1; i < t.length; i++) {
          if (!safeCut(t, i)) continue;
          for (const [name, count] of Object.entries(VOCABULARIES))
            expect(count(t.slice(0, i)) + count(t.slice(i)), `${name} ${JSON.stringify(t)} at ${i}`).toBe(
              count(t),
            );
        }
      }),
      { seed: SEED, numRuns: runs(3000, 100_000) },
    );
  });

  it('parts hold the whole text, within the limit unless no safe cut is in reach, and count as it', () => {
    fc.assert(
      fc.property(text(40), fc.integer({ min: 1, max: 16 }), (t, limit) => {
        let from = 0;
        const sums = { o200k: 0, cl100k: 0 };
        for (const { end, long } of parts(t, 0, t.length, limit)) {
          expect(end).toBeGreaterThan(from);
          const safe = (i: number) => i > from && i <= Math.min(end, from + limit) && safeCut(t, i);
          const inReach = Array.from({ length: limit }, (_, k) => from + limit - k).find(safe);
          if (long) {
            // Nothing safe in reach, and the part stops at the first safe cut past it.
            expect(inReach).toBeUndefined();
            for (let i = from + limit + 1; i < end; i++) expect(safeCut(t, i)).toBe(false);
            if (end < t.length) expect(safeCut(t, end)).toBe(true);
          } else {
            expect(end - from).toBeLessThanOrEqual(limit);
            // The last safe cut in reach: as few parts as the limit allows.
            if (end < t.length) expect(end).toBe(inReach);
          }
          sums.o200k += VOCABULARIES.o200k(t.slice(from, end));
          sums.cl100k += VOCABULARIES.cl100k(t.slice(from, end));
          from = end;
        }
        expect(from).toBe(t.length);
        expect(sums).toEqual({ o200k: VOCABULARIES.o200k(t), cl100k: VOCABULARIES.cl100k(t) });
      }),
      { seed: SEED, numRuns: runs(1000, 50_000) },
    );
  });

  // Each is a cut a looser rule would take, and would count differently in some vocabulary.
  it.each([
    ['punctuation takes the line breaks after it', 'x!\n\ny', 2],
    ['o200k glues a contraction to its word', "don't do", 3],
    ['digits are grouped from the start of their run', '12345678', 4],
    ['whitespace before a digit looks ahead', 'a  5', 3],
    ['whitespace before a line break looks ahead', 'x;  \n\ny', 4],
    ['the halves of a surrogate pair', '\u{1F600}\u{1F600}', 1],
  ])('no cut where %s', (_why, t, at) => {
    expect(safeCut(t, at)).toBe(false);
    const split = (count: (s: string) => number) => count(t.slice(0, at)) + count(t.slice(at));
    expect(Object.values(VOCABULARIES).some((count) => split(count) !== count(t))).toBe(true);
  });

  it('ordinary prose and code are cut within a few characters of any point', () => {
    const prose = 'The parser reads 12 files, then it writes them: out/a.txt (and b).\n';
    const code = 'function f(x) {\n  return x.map((y) => y * 2);\n}\n';
    for (const t of [prose.repeat(20), code.repeat(20)]) {
      const cuts = Array.from({ length: t.length }, (_, i) => i).filter((i) => safeCut(t, i));
      const gaps = cuts.slice(1).map((c, k) => c - (cuts[k] as number));
      expect(Math.max(...gaps)).toBeLessThanOrEqual(12);
    }
  });
});

describe('counting text longer than a part', () => {
  it('gives the count of the whole text, also across a stretch with no safe cut', () => {
    // Few distinct pieces, so the library's own count of the whole is quick; the indented empty
    // objects have no safe cut for more than PART characters, and are counted uncached.
    const sample = FRAGMENTS.join(' ').repeat(40);
    const stuck = '  {},\n'.repeat(Math.ceil((PART * 1.2) / 6));
    const t = `${sample.repeat(Math.ceil((3 * PART) / sample.length))}${stuck}${sample.repeat(10)}`;
    const all = [...parts(t, 0, t.length, PART)];
    expect(all.filter((p) => !p.long).length).toBeGreaterThan(3);
    expect(all.filter((p) => p.long)).toHaveLength(1);
    for (const [name, count] of Object.entries(VOCABULARIES))
      expect(countTokens(name as 'o200k' | 'cl100k', t), name).toBe(count(t));
  });
});

describe(`chunks whose counts are remembered (fast-check seed ${SEED})`, () => {
  // Lines of every class, and lines a chunk may end before: empty, a separator, a closing brace.
  const lines = fc
    .array(fc.oneof(text(6), fc.constantFrom('', '---', '}', '  );', '\t', ' ', '/')), { maxLength: 12 })
    .chain((ls) =>
      fc
        .array(fc.constantFrom('\n', '\r\n', '\n\n', '\r'), { minLength: ls.length, maxLength: ls.length })
        .map((breaks) => ls.map((l, k) => `${l}${breaks[k]}`).join('')),
    );

  it('are cut only where the count cannot change, and count as the whole does', () => {
    fc.assert(
      fc.property(lines, (t) => {
        const ends = chunkEnds(t);
        expect(ends.at(-1)).toBe(t.length);
        for (const end of ends.slice(0, -1))
          expect(safeCut(t, end), `${JSON.stringify(t)} at ${end}`).toBe(true);
        for (const [name, count] of Object.entries(VOCABULARIES))
          expect(countTokens(name as 'o200k' | 'cl100k', t), `${name} ${JSON.stringify(t)}`).toBe(count(t));
      }),
      { seed: SEED, numRuns: runs(1000, 30_000) },
    );
  });

  it('cut a file alike wherever it stands, so its chunks are counted once', () => {
    const file = 'def f(x):\n    return x\n\n\nclass A:\n    pass\n';
    const chunksOf = (t: string) => {
      const ends = chunkEnds(t);
      return ends.map((end, k) => t.slice(k === 0 ? 0 : ends[k - 1], end));
    };
    const alone = chunksOf(file);
    expect(alone).toEqual(['def f(x):\n    return x\n\n\n', 'class A:\n    pass\n']);
    const inBundle = chunksOf(`[CONTEXT BUNDLE]\nitems: 2\n---\nnotes\n---\n${file}`);
    expect(inBundle.slice(-2)).toEqual(alone);
    // An indented line after an empty one continues the white space before it: no cut.
    expect(chunkEnds('a\n\n  b')).toEqual([6]);
  });
});
