/**
 * report.html's headline with intervals: the catalogue's `intervals` table, each strategy's rates
 * with their 95% Wilson interval and its means with a 95% bootstrap interval (seeded by the
 * strategy's and the figure's names, so the page is the same bytes for the same rows). A reader
 * sees at a glance which strategies' figures overlap, before `compare` tests a pair cell by cell.
 * The figures and their intervals are the catalogue's (metrics/figure-intervals.ts); this writes them.
 */

import { DIGITS, fixed, int } from '../format.js';
import { columnOf, estimateOf, figuresOf, rowsOf, strategyStats } from '../metrics/index.js';
import type { Row } from '../types.js';
import type { Table } from './table.js';

/** `0.8095 [0.6666, 0.9003]`, or `-` for nothing. */
const between = (x: number | null, low: number | null, high: number | null): string =>
  x === null ? '-' : `${fixed(x, DIGITS.score)} [${fixed(low, DIGITS.score)}, ${fixed(high, DIGITS.score)}]`;

/** The figures, each with its interval, per strategy in `names` order. */
export function intervalTable(rows: readonly Row[], names: readonly string[]): Table {
  const figures = figuresOf('intervals');
  return {
    headers: [columnOf('strategy').label, ...figures.map((f) => f.label)],
    rows: names.map((n) => {
      const mine = rowsOf(rows, n);
      const s = strategyStats(mine);
      return [
        n,
        ...figures.map((f) => {
          // A count that is neither a rate nor a mean (how many compilations) has no interval.
          if (f.among === undefined && f.sample === undefined) return int(f.of(s) ?? 0);
          const e = estimateOf(f, mine, s, `report/${n}/${f.name}`);
          return between(e.value, e.low, e.high);
        }),
      ];
    }),
  };
}
