import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { codeTerms } from '../../../src/harness/ingest/relevance/relevance-score.js';

const SEED = 20_261_202;

/** The Unicode-only definition codeTerms had before its ASCII fast paths: the reference. */
function reference(text: string): string[] {
  const out: string[] = [];
  for (const word of text.split(/[^\p{L}\p{N}_]+/u)) {
    if (word === '') continue;
    const parts = word
      .replace(/([\p{Ll}\p{N}])(\p{Lu})/gu, '$1 $2')
      .replace(/(\p{Lu})(\p{Lu}\p{Ll})/gu, '$1 $2')
      .split(/[ _]+/)
      .filter((p) => p !== '');
    out.push(word.toLowerCase());
    if (parts.length > 1) for (const p of parts) out.push(p.toLowerCase());
  }
  return out;
}

// Case changes, digits, underscores, non-ASCII letters and digits (a title-case letter, Greek,
// Arabic-Indic digits), and separators.
const PIECES = [
  'a',
  'b',
  'Z',
  'X',
  'Y',
  'q',
  '1',
  '9',
  '_',
  ' ',
  '.',
  '(',
  'é',
  'É',
  'ǅ',
  'Σ',
  'σ',
  '٣',
  'İ',
  '\n',
];

describe(`codeTerms (fast-check seed ${SEED})`, () => {
  it('splits as the Unicode definition does', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          fc.array(fc.constantFrom(...PIECES), { maxLength: 24 }).map((p) => p.join('')),
        ),
        (t) => {
          expect(codeTerms(t)).toEqual(reference(t));
        },
      ),
      { seed: SEED, numRuns: 2000 },
    );
  });

  it('splits camelCase, acronyms and snake_case (worked by hand)', () => {
    expect(codeTerms('parseHTTPRequest x_y2 abc')).toEqual([
      'parsehttprequest',
      'parse',
      'http',
      'request',
      'x_y2',
      'x',
      'y2',
      'abc',
    ]);
  });
});
