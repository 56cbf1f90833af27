/**
 * A strategy figure with its 95% interval, from the catalogue's own definitions: a rate (a count
 * among its figure's denominator) with its Wilson interval, a mean with a seeded bootstrap interval
 * over the values it is the mean of. So report.html's intervals and `findings`' rates count the
 * same rows as the figures they stand beside.
 */
import type { Row, StrategyStats } from '../types.js';
import type { Figure } from './catalogue.js';
import { bootstrapMean } from './paired.js';
import { type Rate, wilson } from './stats.js';

/** A figure's value and its 95% interval; all null where there is nothing to count. */
export interface Estimate {
  readonly value: number | null;
  readonly low: number | null;
  readonly high: number | null;
}

/** A rate figure as its count among its denominator, with the Wilson interval; null for a figure that is no rate. */
export function rateOf(f: Figure, s: StrategyStats): Rate | null {
  return f.among === undefined ? null : wilson(f.of(s) ?? 0, f.among(s));
}

/**
 * A rate or a mean over one strategy's `rows` (`s` their stats) with its interval; `seed` names
 * the bootstrap's draws. A figure that is neither has no interval: a mistake in the table.
 */
export function estimateOf(f: Figure, rows: readonly Row[], s: StrategyStats, seed: string): Estimate {
  const rate = rateOf(f, s);
  if (rate !== null)
    return { value: rate.of === 0 ? null : rate.count / rate.of, low: rate.low, high: rate.high };
  if (f.sample === undefined) throw new Error(`${f.name} is neither a rate nor a mean over rows`);
  const i = bootstrapMean(f.sample(rows), seed);
  return i === null ? { value: null, low: null, high: null } : { value: i.delta, low: i.low, high: i.high };
}
