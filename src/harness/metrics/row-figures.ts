/**
 * The catalogue's figures of one compilation: the book's metrics (scores.ts) and the field's
 * bundle measures (measures.ts), each a field of every row. The strategy figures over many rows
 * are in figures.ts.
 */
import type { Metrics, ScalarMeasure } from '../types.js';
import { VIOLATION_KINDS } from '../vocabulary.js';
import { type Described, type Direction, type Kind, RANGES, type Range, type Unit } from './described.js';

/** A figure of one compilation: a field of every row (rows.jsonl, rows.csv, findings). */
export interface RowMetric extends Described {
  readonly name: keyof Metrics;
  /** A yes or no (null when not scored), or a number (null when undefined for the row). */
  readonly type: 'boolean' | 'number';
}

const metric = (
  name: keyof Metrics,
  label: string,
  kind: Kind,
  unit: Unit,
  direction: Direction,
  range: Range,
  type: RowMetric['type'] = 'number',
): RowMetric => ({ name, label, kind, unit, direction, range, type });

const { fraction, yesNo, count, nonNegative, signedCount } = RANGES;

/**
 * Every row metric, in the order rows.jsonl and rows.csv hold them. A row's must recall and budget
 * slack are labelled as a cell's: the strategy figures of those words are over other rows
 * (figures.ts), and a label names one thing.
 */
export const ROW_METRICS: readonly RowMetric[] = [
  metric('status_correct', 'correct', 'count', 'compilations', 'higher', yesNo, 'boolean'),
  metric('budget_compliant', 'within budget', 'count', 'compilations', 'higher', yesNo, 'boolean'),
  metric('must_recall', 'must recall (cell)', 'score', 'fraction', 'higher', fraction),
  metric('should_recall', 'should recall', 'score', 'fraction', 'higher', fraction),
  metric('must_total', 'must items', 'count', 'items', null, count),
  metric('should_total', 'should items', 'count', 'items', null, count),
  metric('precision', 'precision', 'score', 'fraction', 'higher', fraction),
  metric('distractor_admission', 'distractor', 'count', 'items', 'lower', count),
  metric('harmful_admission', 'harmful', 'count', 'items', 'lower', count),
  metric('illegal_admission', 'illegal', 'count', 'items', 'lower', count),
  ...VIOLATION_KINDS.map((k) => metric(`${k}_violations`, k, 'count', 'items', 'lower', count)),
  metric('under_admission', 'under-admission', 'count', 'items', 'lower', count),
  metric('over_admission', 'over-admission', 'count', 'items', 'lower', count),
  // Negative when the bundle is over its budget.
  metric('budget_slack', 'budget slack (cell)', 'count', 'tokens', null, signedCount),
];

/**
 * A measure of one bundle (measures.ts): a field of every row's `measures`, null for a refusal or
 * an error. A strategy's figure is the mean of its bundles' values, or for tokens their sum.
 */
export interface RowMeasure extends Described {
  readonly name: ScalarMeasure;
  readonly over: 'mean' | 'sum';
}

const measure = (
  name: ScalarMeasure,
  label: string,
  kind: Kind,
  unit: Unit,
  direction: Direction,
  range: Range,
  over: RowMeasure['over'],
): RowMeasure => ({ name, label, kind, unit, direction, range, over });

/** Every bundle measure, in the order rows.csv appends them. */
export const ROW_MEASURES: readonly RowMeasure[] = [
  // Long contexts lose what sits in their middle: less of the must content there is better.
  measure('must_middle_share', 'must in middle', 'score', 'fraction', 'lower', fraction, 'mean'),
  measure('mean_position', 'needed at', 'score', 'fraction', null, fraction, 'mean'),
  // At most 1: a content held in two forms is credited once (measures.ts).
  measure('ndcg', 'nDCG', 'score', 'fraction', 'higher', fraction, 'mean'),
  // Its mean over bundles is the mean reciprocal rank.
  measure('first_must_rr', 'first must RR', 'score', 'fraction', 'higher', fraction, 'mean'),
  measure('useful_share', 'useful share', 'score', 'fraction', 'higher', fraction, 'mean'),
  measure('redundant_tokens', 'redundant', 'count', 'tokens', 'lower', count, 'sum'),
  // Above 1 for a bundle over its budget.
  measure('budget_use', 'budget use', 'factor', 'ratio', null, nonNegative, 'mean'),
  measure('overshoot_tokens', 'overshoot', 'count', 'tokens', 'lower', count, 'sum'),
  // The localization measures (SWE-bench's): a must content counts only in a sufficient form (a
  // file's full text), as a path list or an outline does not give the reader the file.
  measure(
    'must_sufficient_recall',
    'must recall, sufficient form',
    'score',
    'fraction',
    'higher',
    fraction,
    'mean',
  ),
  measure('must_token_share', 'must token share', 'score', 'fraction', 'higher', fraction, 'mean'),
  // Its mean over bundles is the MRR of the strategy's own ranking, beyond what fitted.
  measure('ranked_must_rr', 'first must RR (ranking)', 'score', 'fraction', 'higher', fraction, 'mean'),
];

const rowByName = new Map(ROW_METRICS.map((m) => [m.name as string, m]));

/** A row metric by name, or undefined for a name that is none. */
export const rowMetric = (name: string): RowMetric | undefined => rowByName.get(name);
