/**
 * The metric catalogue: every figure and column ctxbench reports, written once, with its name, the
 * label a table heads it with, how it is written, its unit, which way is better, the values it can
 * take, and the tables that show it. The rows and rows.csv, the CLI's headline, report.md,
 * report.html, `compare` and `findings` all read it, so a new figure is an entry here and its name
 * in the tables that should show it; no report module spells a label of its own.
 *
 * Its families, a module each: described.ts (what an entry says, and the ranges), row-figures.ts
 * (ROW_METRICS and ROW_MEASURES, a compilation's), figures.ts (FIGURES, a strategy's, and
 * PAIRED_FIGURES, what `compare` tests cell by cell), tables.ts (TABLES, which figures each table
 * shows), columns.ts (COLUMNS, every other column), samples.ts (the rows each mean and rate counts
 * among).
 */
import { COLUMN_TABLES, COLUMNS, type Column, type ColumnTable } from './columns.js';
import type { Kind } from './described.js';
import { figureNamed } from './figures.js';
import { rowMetric } from './row-figures.js';

export { COLUMN_TABLES, COLUMNS, type Column, type ColumnName, type ColumnTable } from './columns.js';
export {
  type Described,
  type Direction,
  type Kind,
  meanRange,
  RANGES,
  type Range,
  rangeText,
  type Unit,
  within,
} from './described.js';
export {
  compositionFigures,
  FIGURES,
  type Figure,
  figureNamed,
  PAIRED_FIGURES,
  type PairedFigure,
  violationTotal,
} from './figures.js';
export { ROW_MEASURES, ROW_METRICS, type RowMeasure, type RowMetric, rowMetric } from './row-figures.js';
export { feasibleRows, measureSample, SAMPLES, type Sample, scoredRows } from './samples.js';
export { figuresOf, TABLES, type TableName } from './tables.js';

/**
 * A column by name: one of COLUMNS, else a strategy figure's words, else a row metric's (a table
 * of cells); an unknown name is a mistake in the code.
 */
export function columnOf(name: string): Column {
  const own = (COLUMNS as Readonly<Record<string, Column>>)[name];
  if (own !== undefined) return own;
  const f = figureNamed(name) ?? rowMetric(name);
  if (f === undefined) throw new Error(`no column or figure "${name}" in the metric catalogue`);
  return { label: f.label, kind: f.kind, range: f.range };
}

/** A table's headers, in order. */
export const headersOf = (table: ColumnTable): string[] => COLUMN_TABLES[table].map((n) => columnOf(n).label);

/** A table's kinds of number, in order (undefined for text). */
export const kindsOf = (table: ColumnTable): (Kind | undefined)[] =>
  COLUMN_TABLES[table].map((n) => columnOf(n).kind);

/** The record fields a table reads, in order: the page's trace and items. */
export const fieldsOf = (table: ColumnTable): string[] =>
  COLUMN_TABLES[table].map((n) => columnOf(n).field ?? n);
