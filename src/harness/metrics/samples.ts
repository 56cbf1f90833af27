/**
 * The rows a strategy's figure is taken over, and the values each mean is the mean of: one
 * definition of each population, read by the stats (summary.json and every table), the interval
 * table of report.html and `findings`, so that a figure and its interval count the same rows.
 */
import type { Row, ScalarMeasure } from '../types.js';
import { STRATEGY_ERROR } from '../vocabulary.js';

/** Every compilation but the strategy's errors, which have no figures. */
export const scoredRows = (rows: readonly Row[]): Row[] => rows.filter((r) => r.reason !== STRATEGY_ERROR);

/** The scored compilations expected to return a bundle (a refusal among them scores 0 recall). */
export const feasibleRows = (rows: readonly Row[]): Row[] =>
  scoredRows(rows).filter((r) => r.expected.success);

const defined = (xs: readonly (number | null)[]): number[] => xs.filter((x): x is number => x !== null);

/** A mean figure of a strategy: the values over its rows it is the mean of. */
export type Sample = (rows: readonly Row[]) => number[];

/** The samples of the strategy figures that are means of a row metric. */
export const SAMPLES = {
  must_recall_feasible: (rows) => defined(feasibleRows(rows).map((r) => r.must_recall)),
  must_recall_all: (rows) => defined(scoredRows(rows).map((r) => r.must_recall)),
  should_recall: (rows) => defined(scoredRows(rows).map((r) => r.should_recall)),
  precision: (rows) => defined(scoredRows(rows).map((r) => r.precision)),
  // A refusal has no slack: the bundles of the feasible compilations.
  budget_slack_feasible: (rows) => defined(feasibleRows(rows).map((r) => r.budget_slack)),
} as const satisfies Record<string, Sample>;

/** A bundle measure over the bundles that define it (a refusal, an error, a run before measures: none). */
export const measureSample =
  (name: ScalarMeasure): Sample =>
  (rows) =>
    defined(scoredRows(rows).map((r) => r.measures?.[name] ?? null));
