/**
 * Whether a difference between two sets of compilations is more than noise, paired cell by cell
 * (the same case at the same budget, under two runs or two strategies): McNemar's exact test for
 * a yes or no (correct, within budget), a seeded paired bootstrap interval for the mean
 * difference of any figure, and Wilson intervals for each side's rate. The distributions come
 * from simple-statistics; the resampling draws from seedrandom, so the same rows and seed give
 * the same bytes on any machine.
 */
import seedrandom from 'seedrandom';
import { binomialDistribution, mean, quantileSorted } from 'simple-statistics';
import { type Rate, wilson } from './stats.js';

/** Resamples per interval: enough for two stable decimals of a 95% percentile interval. */
export const RESAMPLES = 2000;
/** The level every test is read at. */
export const ALPHA = 0.05;

/**
 * McNemar's exact test: of the pairs where the two sides disagree, `aOnly` were yes for A alone
 * and `bOnly` for B alone. Under no difference each discordant pair goes either way with
 * probability 1/2, so the two-sided p is twice the binomial tail of the smaller count (at most 1).
 */
export function mcnemar(aOnly: number, bOnly: number): number {
  const n = aOnly + bOnly;
  if (n === 0) return 1;
  // simple-statistics stops its table once the rest of the mass is negligible: a missing term is 0.
  const table = binomialDistribution(n, 0.5) ?? [];
  let tail = 0;
  for (let k = 0; k <= Math.min(aOnly, bOnly); k++) tail += table[k] ?? 0;
  return Math.min(1, 2 * tail);
}

/** A mean difference (B - A) and its 95% percentile interval from resampling the pairs. */
export interface Interval {
  readonly delta: number;
  readonly low: number;
  readonly high: number;
}

/** The paired bootstrap of the mean of `diffs`, drawing from a generator seeded with `seed`. */
export function bootstrapMean(
  diffs: readonly number[],
  seed: string,
  resamples = RESAMPLES,
): Interval | null {
  if (diffs.length === 0) return null;
  const delta = mean(diffs as number[]);
  if (diffs.every((d) => d === diffs[0])) return { delta, low: delta, high: delta };
  const rng = seedrandom(seed);
  const n = diffs.length;
  const means = new Float64Array(resamples);
  for (let k = 0; k < resamples; k++) {
    // simple-statistics' mean of its sampleWithReplacement, drawn and summed in place: the same
    // draws from the generator, in the same order, the same compensated sum (its `sum`), without
    // an array a resample (the report's costliest loop: 2,000 resamples of every comparison).
    let sum = diffs[Math.floor(rng() * n)] as number;
    let correction = 0;
    for (let i = 1; i < n; i++) {
      const x = diffs[Math.floor(rng() * n)] as number;
      const next = sum + x;
      correction += Math.abs(sum) >= Math.abs(x) ? sum - next + x : x - next + sum;
      sum = next;
    }
    means[k] = (sum + correction) / n;
  }
  means.sort();
  const sorted = Array.from(means);
  return { delta, low: quantileSorted(sorted, ALPHA / 2), high: quantileSorted(sorted, 1 - ALPHA / 2) };
}

/** Of paired yes-or-no outcomes, those where A alone says yes, and B alone: what McNemar's test reads. */
export function discordant(pairs: Iterable<readonly [boolean, boolean]>): { aOnly: number; bOnly: number } {
  let aOnly = 0;
  let bOnly = 0;
  for (const [x, y] of pairs) {
    if (x && !y) aOnly++;
    if (y && !x) bOnly++;
  }
  return { aOnly, bOnly };
}

/** A figure of a pair of compilations: a yes or no, or a number; null where the row does not define it. */
export type Pairable = boolean | number | null;

/** One figure's test over paired cells. */
export interface PairedTest {
  /** Cells where both sides define the figure. */
  readonly cells: number;
  /** Of those, the cells where the two sides differ: what backs a difference. */
  readonly differ: number;
  /** Each side's mean (for a yes or no, its rate). */
  readonly a: number | null;
  readonly b: number | null;
  /** B - A with its 95% bootstrap interval. */
  readonly interval: Interval | null;
  /** For a yes or no: McNemar's exact p and each side's Wilson interval. */
  readonly p: number | null;
  readonly rate_a: Rate | null;
  readonly rate_b: Rate | null;
  /** At ALPHA: McNemar's p for a yes or no, the interval excluding 0 for a number. */
  readonly significant: boolean;
}

/** Test one figure over the pairs (A's value, B's value); `seed` names its resampling. */
export function pairedTest(pairs: readonly (readonly [Pairable, Pairable])[], seed: string): PairedTest {
  const both = pairs.filter((p): p is [boolean | number, boolean | number] => p[0] !== null && p[1] !== null);
  const num = (v: boolean | number) => Number(v);
  const diffs = both.map(([x, y]) => num(y) - num(x));
  const interval = bootstrapMean(diffs, seed);
  const binary = both.length > 0 && both.every(([x, y]) => typeof x === 'boolean' && typeof y === 'boolean');
  const differ = diffs.filter((d) => d !== 0).length;
  const side = (k: 0 | 1) => (both.length === 0 ? null : mean(both.map((p) => num(p[k]))));
  const common = { cells: both.length, differ, a: side(0), b: side(1), interval };
  if (!binary)
    return {
      ...common,
      p: null,
      rate_a: null,
      rate_b: null,
      significant: interval !== null && (interval.low > 0 || interval.high < 0),
    };
  const { aOnly, bOnly } = discordant(both as [boolean, boolean][]);
  const p = mcnemar(aOnly, bOnly);
  const yes = (k: 0 | 1) => both.filter((pair) => pair[k] === true).length;
  return {
    ...common,
    p,
    rate_a: wilson(yes(0), both.length),
    rate_b: wilson(yes(1), both.length),
    significant: p < ALPHA,
  };
}
