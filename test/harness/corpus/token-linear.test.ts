/**
 * Counting stays linear whatever the text. gpt-tokenizer's merge cache, left to evict one entry at
 * a time, made text of many distinct words cost 4-13 times what merging every piece afresh costs,
 * and 100-400 times text of few words (bpe.ts, MERGE_CACHE). Merging a new piece is what it must
 * cost, about 25 times a word the vocabulary holds whole. Timings are compared only as ratios of
 * runs made side by side in this process, the median of three, with room for a loaded machine.
 */
import { setMergeCacheSize, countTokens as uncachedCount } from 'gpt-tokenizer/encoding/o200k_base';
import { afterAll, describe, expect, it } from 'vitest';
import { countTokens } from '../../../src/harness/corpus/bpe.js';

const plain = { disallowedSpecial: new Set<string>() };

/** A fixed stream of numbers in [0, 1) (mulberry32): the same words on every run. */
function stream(seed: number): () => number {
  let s = seed;
  return () => {
    s = (s + 0x6d2b79f5) | 0;
    let t = Math.imul(s ^ (s >>> 15), 1 | s);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const random = stream(47);

/** `n` characters of words from `next`, one space apart. */
function words(n: number, next: () => string): string {
  const all: string[] = [];
  for (let size = 0; size < n; ) {
    const w = next();
    all.push(w);
    size += w.length + 1;
  }
  return all.join(' ').slice(0, n);
}

/** Words of 4-6 random letters: almost all distinct, and none a token of its own. */
const distinct = () => {
  let w = '';
  for (let n = 4 + Math.floor(random() * 3); n > 0; n--)
    w += String.fromCharCode(97 + Math.floor(random() * 26));
  return w;
};

/** Few words, each one token with its space, in both vocabularies. */
const COMMON =
  'the and that have with this from they which would there their about other could after first'.split(' ');
const common = () => COMMON[Math.floor(random() * COMMON.length)] as string;

const seconds = (f: () => void): number => {
  const t0 = performance.now();
  f();
  return performance.now() - t0;
};
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[1] as number;

describe('the cost of counting text of distinct words', () => {
  afterAll(() => setMergeCacheSize(100_000));

  it('is at most a few times merging each piece once, and a bounded multiple of few words', () => {
    // The yardstick: the library alone, in a module instance of its own, with no cache at all.
    setMergeCacheSize(0);
    // More distinct pieces than the library's cache holds by default: counted before this,
    // a cache that evicts one entry at a time is already churning when the timed runs begin.
    countTokens('o200k', words(700_000, distinct));
    const toMerging: number[] = [];
    const toFew: number[] = [];
    for (let run = 0; run < 3; run++) {
      const text = words(500_000, distinct);
      const few = words(1_500_000, common);
      const counted = seconds(() => countTokens('o200k', text));
      const merged = seconds(() => uncachedCount(text, plain));
      const fewCounted = seconds(() => countTokens('o200k', few));
      toMerging.push(counted / merged);
      // Per character: the text of few words is three times as long, to be timed as surely.
      toFew.push(counted / (fewCounted / 3));
    }
    // Measured on two busy cores: 0.9-1.3 and 25-34 each run; before MERGE_CACHE, 4-13 and 115-434.
    expect(median(toMerging), `${toMerging}`).toBeLessThan(3);
    expect(median(toFew), `${toFew}`).toBeLessThan(80);
  });
});
