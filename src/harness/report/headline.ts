/**
 * The headline a command prints after a study: one line per strategy, few enough and short enough
 * columns to fit a 100-column terminal (report.md keeps the wide table with every column).
 * Correct counts the expected outcomes (report.md has the wrong ones too); violations sum the six kinds; tokens are the rendered tokens of every bundle; the errors column
 * appears only when a strategy failed somewhere.
 */
import { violationTotal } from '../score/index.js';
import type { StrategyStats } from '../types.js';
import type { Kind } from './format.js';
import type { Cell, Table } from './table.js';

/** One row per strategy: each column a header, the kind of its figures and the figure. */
export type Column = readonly [header: string, kind: Kind, figure: (s: StrategyStats) => Cell];

/** A table with one row per strategy, in `names`' order, and a column per `columns`. */
export function strategyTable(
  names: readonly string[],
  stats: ReadonlyMap<string, StrategyStats>,
  columns: readonly Column[],
): Table {
  return {
    headers: ['strategy', ...columns.map(([header]) => header)],
    rows: names.map((n) => [n, ...columns.map(([, , figure]) => figure(stats.get(n) as StrategyStats))]),
    kinds: [undefined, ...columns.map(([, kind]) => kind)],
  };
}

const COLUMNS: readonly Column[] = [
  ['correct', 'count', (s) => s.correct],
  ['refused', 'count', (s) => s.refusals],
  ['errors', 'count', (s) => s.errors],
  ['violations', 'count', violationTotal],
  ['distractor', 'count', (s) => s.distractor],
  ['harmful', 'count', (s) => s.harmful],
  ['must recall', 'score', (s) => s.must_recall_feasible],
  ['tokens', 'count', (s) => s.rendered_tokens],
];

export function headlineTable(stats: ReadonlyMap<string, StrategyStats>): Table {
  const failed = [...stats.values()].some((s) => s.errors > 0);
  const columns = COLUMNS.filter(([header]) => header !== 'errors' || failed);
  return strategyTable([...stats.keys()], stats, columns);
}
