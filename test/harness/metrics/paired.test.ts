/**
 * The paired tests against values worked out by hand: McNemar's exact p from the binomial
 * distribution with p = 1/2, a bootstrap that is the same bytes for the same seed and brackets a
 * known shift, and which differences count as significant.
 */
import seedrandom from 'seedrandom';
import { mean, quantileSorted, sampleWithReplacement } from 'simple-statistics';
import { describe, expect, it } from 'vitest';
import { bootstrapMean, mcnemar, pairedTest, RESAMPLES } from '../../../src/harness/metrics/paired.js';

describe("McNemar's exact test", () => {
  it('doubles the binomial tail of the smaller discordant count', () => {
    // 1 against 6 of 7 discordant pairs: P(X <= 1) = (1 + 7) / 2^7 = 8/128; two-sided 16/128.
    expect(mcnemar(1, 6)).toBeCloseTo(16 / 128, 12);
    expect(mcnemar(6, 1)).toBeCloseTo(16 / 128, 12);
    // 0 against 8: 2 / 2^8.
    expect(mcnemar(0, 8)).toBeCloseTo(2 / 256, 12);
    // A tie is no evidence: capped at 1. No discordant pair at all: 1.
    expect(mcnemar(3, 3)).toBe(1);
    expect(mcnemar(0, 0)).toBe(1);
  });

  it('is significant at 0.05 only with enough discordant pairs', () => {
    // 0 against 5: 2/32 = 0.0625, not below 0.05; 0 against 6: 2/64 = 0.03125, below.
    expect(mcnemar(0, 5)).toBeCloseTo(0.0625, 12);
    expect(mcnemar(0, 6)).toBeCloseTo(0.03125, 12);
  });
});

describe('the paired bootstrap', () => {
  const diffs = [3, 5, 4, 6, 2, 4, 5, 3, 4, 4];

  it('is the same numbers for the same seed, and other numbers for another', () => {
    // Fifty spread-out differences: the resampled means are fine-grained, so seeds tell apart.
    const wide = Array.from({ length: 50 }, (_, k) => ((k * 37) % 23) - 11);
    const one = bootstrapMean(wide, 's1');
    expect(bootstrapMean(wide, 's1')).toEqual(one);
    expect(bootstrapMean(wide, 's2')).not.toEqual(one);
  });

  it("is simple-statistics' mean of its resamples, drawn from the same seeded generator, to the bit", () => {
    // The resampling is written out in place for speed; the library's own composition is what it
    // must equal, on differences whose compensated sums round differently from a plain one.
    const reference = (xs: number[], seed: string) => {
      const rng = seedrandom(seed);
      const means = Array.from({ length: RESAMPLES }, () => mean(sampleWithReplacement(xs, xs.length, rng)));
      const sorted = means.sort((a, b) => a - b);
      return { low: quantileSorted(sorted, 0.025), high: quantileSorted(sorted, 0.975) };
    };
    for (const xs of [
      [1e16, 1, -1e16, 3, 0.1, 0.2, -0.3],
      Array.from({ length: 97 }, (_, k) => Math.sin(k) * 10 ** (k % 7)),
      [0, 0, 1, 0, -1, 0, 0, 1],
    ])
      for (const seed of ['a', 'compare/tight/correct'])
        expect(bootstrapMean(xs, seed), seed).toMatchObject(reference(xs, seed));
  });

  it('brackets the mean inside the range of the differences', () => {
    const i = bootstrapMean(diffs, 's1');
    // The mean of the ten differences is 40 / 10 = 4.
    expect(i?.delta).toBe(4);
    expect(i?.low).toBeLessThan(4);
    expect(i?.high).toBeGreaterThan(4);
    expect(i?.low).toBeGreaterThanOrEqual(2);
    expect(i?.high).toBeLessThanOrEqual(6);
  });

  it('gives a point for constant differences and nothing for no pairs', () => {
    expect(bootstrapMean([2, 2, 2], 's')).toEqual({ delta: 2, low: 2, high: 2 });
    expect(bootstrapMean([], 's')).toBeNull();
  });
});

describe('a figure tested pair by pair', () => {
  it('a yes or no: rates, the discordant pairs, McNemar and Wilson', () => {
    // 10 pairs: A yes and B yes 3, A no and B yes 6, A yes and B no 0, both no 1.
    const pairs = [
      ...Array.from({ length: 3 }, () => [true, true] as const),
      ...Array.from({ length: 6 }, () => [false, true] as const),
      [false, false] as const,
      [null, true] as const, // undefined on one side: left out
    ];
    const t = pairedTest(pairs, 'x');
    expect(t.cells).toBe(10);
    expect(t.differ).toBe(6);
    expect(t.a).toBe(0.3);
    expect(t.b).toBe(0.9);
    expect(t.p).toBeCloseTo(2 / 64, 12); // 0 against 6
    expect(t.significant).toBe(true);
    expect(t.rate_a).toMatchObject({ count: 3, of: 10 });
    expect(t.rate_b).toMatchObject({ count: 9, of: 10 });
    expect(t.interval?.delta).toBeCloseTo(0.6, 12);
  });

  it('a number: significant when the interval leaves 0 out, not when a single cell moved', () => {
    const shifted = pairedTest(
      [1, 2, 3, 4, 5, 6, 7, 8].map((x) => [x, x + 10] as const),
      'y',
    );
    expect(shifted.p).toBeNull();
    expect(shifted.interval).toEqual({ delta: 10, low: 10, high: 10 });
    expect(shifted.significant).toBe(true);
    // One cell of twenty up by 5: the resampled means include 0.
    const once = pairedTest(
      Array.from({ length: 20 }, (_, k) => [k, k === 0 ? 5 : k] as const),
      'y',
    );
    expect(once.differ).toBe(1);
    expect(once.interval?.low).toBe(0);
    expect(once.significant).toBe(false);
  });
});
