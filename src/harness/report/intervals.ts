/**
 * report.html's headline with intervals: each strategy's rates with their 95% Wilson interval,
 * and its means with a 95% bootstrap interval (seeded by the strategy's and the figure's names,
 * so the page is the same bytes for the same rows). A reader sees at a glance which strategies'
 * figures overlap, before `compare` tests a pair cell by cell.
 */

import { DIGITS, fixed, int } from '../format.js';
import { bootstrapMean, rowsOf, wilson } from '../metrics/index.js';
import type { Row } from '../types.js';
import { STRATEGY_ERROR } from '../vocabulary.js';
import type { Table } from './table.js';

const scored = (rows: readonly Row[]) => rows.filter((r) => r.reason !== STRATEGY_ERROR);

/** `0.8095 [0.6666, 0.9003]`, or `-` for nothing. */
const between = (x: number | null, low: number | null, high: number | null): string =>
  x === null ? '-' : `${fixed(x, DIGITS.score)} [${fixed(low, DIGITS.score)}, ${fixed(high, DIGITS.score)}]`;

function rate(rows: readonly Row[], yes: (r: Row) => boolean): string {
  const w = wilson(rows.filter(yes).length, rows.length);
  return between(rows.length === 0 ? null : w.count / w.of, w.low, w.high);
}

function meanOf(values: readonly (number | null)[], seed: string): string {
  const i = bootstrapMean(
    values.filter((v): v is number => v !== null),
    seed,
  );
  return i === null ? '-' : between(i.delta, i.low, i.high);
}

/** The figures, each with its interval, per strategy in `names` order. */
export function intervalTable(rows: readonly Row[], names: readonly string[]): Table {
  return {
    headers: ['strategy', 'compilations', 'correct', 'refused', 'must recall', 'nDCG', 'useful share'],
    rows: names.map((n) => {
      const mine = scored(rowsOf(rows, n));
      const seed = (figure: string) => `report/${n}/${figure}`;
      return [
        n,
        int(mine.length),
        rate(mine, (r) => r.status_correct === true),
        rate(mine, (r) => !r.success),
        meanOf(
          mine.filter((r) => r.expected.success).map((r) => r.must_recall),
          seed('must_recall'),
        ),
        meanOf(
          mine.map((r) => r.measures?.ndcg ?? null),
          seed('ndcg'),
        ),
        meanOf(
          mine.map((r) => r.measures?.useful_share ?? null),
          seed('useful_share'),
        ),
      ];
    }),
  };
}
