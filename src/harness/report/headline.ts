/**
 * The headline a command prints after a study: one line per strategy, few enough and short enough
 * columns to fit a 100-column terminal (report.md keeps the wide table with every column).
 * Correct counts the expected outcomes (report.md has the wrong ones too); violations sum the six kinds; tokens are the rendered tokens of every bundle; the errors column
 * appears only when a strategy failed somewhere.
 */
import { columnOf, type Figure, figuresOf } from '../metrics/index.js';
import type { StrategyStats } from '../types.js';
import type { Table } from './table.js';

/** A table with one row per strategy, in `names`' order, and a column per figure, headed by its label. */
export function strategyTable(
  names: readonly string[],
  stats: ReadonlyMap<string, StrategyStats>,
  figures: readonly Figure[],
): Table {
  return {
    headers: [columnOf('strategy').label, ...figures.map((f) => f.label)],
    rows: names.map((n) => [n, ...figures.map((f) => f.of(stats.get(n) as StrategyStats))]),
    kinds: [undefined, ...figures.map((f) => f.kind)],
  };
}

/** The catalogue's headline figures; the errors column only when a strategy failed somewhere. */
export function headlineTable(stats: ReadonlyMap<string, StrategyStats>): Table {
  const failed = [...stats.values()].some((s) => s.errors > 0);
  const figures = figuresOf('headline').filter((f) => f.name !== 'errors' || failed);
  return strategyTable([...stats.keys()], stats, figures);
}
