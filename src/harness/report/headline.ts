/**
 * The headline a command prints after a study: one line per strategy, few enough and short enough
 * columns to fit a 100-column terminal (report.md keeps the wide table with every column).
 * Correct counts the expected outcomes (report.md has the wrong ones too); violations sum the six kinds; tokens are the rendered tokens of every bundle; the errors column
 * appears only when a strategy failed somewhere.
 */
import type { StrategyStats } from '../types.js';
import { VIOLATION_KINDS } from '../vocabulary.js';
import type { Cell, Table } from './table.js';

const COLUMNS: readonly (readonly [header: string, digits: number, figure: (s: StrategyStats) => Cell])[] = [
  ['correct', 0, (s) => s.correct],
  ['refused', 0, (s) => s.refusals],
  ['errors', 0, (s) => s.errors],
  ['violations', 0, (s) => VIOLATION_KINDS.reduce((sum, kind) => sum + s.violations[kind], 0)],
  ['distractor', 0, (s) => s.distractor],
  ['harmful', 0, (s) => s.harmful],
  ['must recall', 2, (s) => s.must_recall_feasible],
  ['tokens', 0, (s) => s.rendered_tokens],
];

export function headlineTable(stats: ReadonlyMap<string, StrategyStats>): Table {
  const failed = [...stats.values()].some((s) => s.errors > 0);
  const columns = COLUMNS.filter(([header]) => header !== 'errors' || failed);
  return {
    headers: ['strategy', ...columns.map(([header]) => header)],
    rows: [...stats].map(([name, s]) => [name, ...columns.map(([, , figure]) => figure(s))]),
    digits: [0, ...columns.map(([, digits]) => digits)],
  };
}
