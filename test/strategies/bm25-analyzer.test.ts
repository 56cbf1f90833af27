import fc from 'fast-check';
import { findBoundaries } from 'unicode-default-word-boundary';
import { describe, expect, it } from 'vitest';
import {
  analyze,
  ENGLISH_STOP_WORDS,
  queryTerms,
  segments,
  storedLength,
} from '../../src/harness/kit/lucene.js';

describe("bm25's analyzer is Anserini's DefaultEnglishAnalyzer", () => {
  it('splits at UAX #29 word boundaries: dotted names, snake_case and decimals hold together', () => {
    // StandardTokenizer keeps letters joined by . : ' and digits by . , ; ' (WB6, WB7, WB11,
    // WB12), and _ with anything (WB13a, WB13b); ( ) = - / split. "a" is a stop word.
    expect(analyze('self.assertEqual(os.path.join(a, b))')).toEqual(['self.assertequ', 'os.path.join', 'b']);
    expect(analyze('foo_bar x=1 3.14 1,000 std::vector foo-bar src/util.ts')).toEqual([
      'foo_bar',
      'x',
      '1',
      '3.14',
      '1,000',
      'std',
      'vector',
      'foo',
      'bar',
      'src',
      'util.t',
    ]);
  });

  it("drops possessives, lowercases as Java does, removes Lucene's 33 stop words", () => {
    expect(analyze("The Owner's dogs' Bowls")).toEqual(['owner', 'dog', 'bowl']);
    // U+0130 lowercases to a plain i (Java's simple mapping), a final capital sigma to sigma.
    expect(analyze('\u0130STANBUL ΟΔΟΣ')).toEqual(['istanbul', 'οδοσ']);
    expect(ENGLISH_STOP_WORDS.size).toBe(33);
    expect(analyze([...ENGLISH_STOP_WORDS].join(' '))).toEqual([]);
  });

  it("stems as Lucene's PorterStemmer does, whole-suffix words included", () => {
    const stems = analyze('caresses ponies running hopping happy generalization relational ies sses');
    expect(stems).toEqual(['caress', 'poni', 'run', 'hop', 'happi', 'gener', 'relat', 'i', 'ss']);
  });

  it('keeps only segments with a letter, digit or emoji, and cuts a token at 255 characters', () => {
    expect(analyze('___ -- ;; __init__')).toEqual(['__init__']);
    const long = 'x'.repeat(300);
    expect(analyze(long)).toEqual(['x'.repeat(255), 'x'.repeat(45)]);
  });

  it('the ASCII pattern splits every ASCII text as the UAX #29 segmenter does', () => {
    const ascii = fc.string({
      unit: fc.constantFrom(..."aZ09_.:',;- ()\"'=/\t\n".split('')),
      maxLength: 40,
    });
    fc.assert(
      fc.property(ascii, (text) => {
        for (const chunk of text.split(/[\t\n\v\f\r ]+/).filter((c) => c !== '')) {
          const bounds = [...findBoundaries(chunk)];
          const general = bounds.slice(1).map((end, i) => chunk.slice(bounds[i], end));
          expect(segments(chunk)).toEqual(general.filter((s) => /[A-Za-z0-9_]/.test(s)));
        }
      }),
      { seed: 29, numRuns: 2000 },
    );
  });
});

describe('Lucene details that move a rank', () => {
  it("a document's length is kept in one byte: exact below 24, then four significant bits", () => {
    // SmallFloat.intToByte4: 100 - 24 = 76 = 0b1001100 keeps 0b1001 << 3 = 72; 1000 keeps 960.
    expect([0, 1, 23, 24, 25, 100, 1000].map(storedLength)).toEqual([0, 1, 23, 24, 25, 96, 984]);
    for (let n = 1; n < 5000; n += 1) {
      expect(storedLength(n)).toBeGreaterThanOrEqual(storedLength(n - 1));
      expect(storedLength(n)).toBeLessThanOrEqual(n);
    }
  });

  it('a query of more than 1,024 tokens is cut to 80% of its characters until it fits', () => {
    // 1,100 tokens in 3,300 characters; cut to round(0.8 x 3300) = 2,640: 880 whole tokens.
    expect(queryTerms('xy '.repeat(1100))).toHaveLength(880);
    expect(queryTerms('xy '.repeat(1024))).toHaveLength(1024);
    // One token over: 3,075 characters cut to 2,460, 820 tokens.
    expect(queryTerms('xy '.repeat(1025))).toHaveLength(820);
  });
});
