/**
 * The columns of report tables that are not strategy figures (figures.ts): what a row is about,
 * the localization figures, the gaps to the oracle and to `exact`, the survey's rates, prefix
 * stability, a decision trace and a bundle's items. Each with the words a table heads it with, and
 * for a number how it is written and the values it can take. No report module spells a label.
 */
import { type Kind, RANGES, type Range } from './described.js';

export interface Column {
  /** Lower-case words, the same in every table that shows the column. */
  readonly label: string;
  /** How its numbers are written; absent for text, or for numbers written as counts. */
  readonly kind?: Kind;
  /** The values its numbers take; absent for text. */
  readonly range?: Range;
  /** The field of the record it shows, where the page reads a record by name. */
  readonly field?: string;
}

const { fraction, count, nonNegative, signedCount, real } = RANGES;
/** A difference of two fractions. */
const fractionGap: Range = { low: -1, high: 1, integer: false };

export const COLUMNS = {
  // What a row of a table is about.
  strategy: { label: 'strategy' },
  case: { label: 'case' },
  repository: { label: 'repository' },
  cases: { label: 'cases', kind: 'count', range: count },
  budget: { label: 'budget' },
  violation_kind: { label: 'violation kind' },
  held_by: { label: 'held by' },
  outcome: { label: 'outcome' },
  expected: { label: 'expected' },
  budget_tokens: { label: 'budget tokens', kind: 'count', range: count },

  // Localization (found-files.ts): the measures of SWE-bench's retrieval setting and its kin, the
  // paper's Avg, All and Any counting a file found in its full text only, then in any form.
  avg_full_text: { label: 'avg, full text', kind: 'percent', range: fraction },
  all_full_text: { label: 'all, full text', kind: 'percent', range: fraction },
  any_full_text: { label: 'any, full text', kind: 'percent', range: fraction },
  avg_any_form: { label: 'avg, any form', kind: 'percent', range: fraction },
  all_any_form: { label: 'all, any form', kind: 'percent', range: fraction },
  any_any_form: { label: 'any, any form', kind: 'percent', range: fraction },
  first_rank: { label: 'first must rank (median)', kind: 'count', range: count },
  acc_at_1: { label: 'acc@1', kind: 'percent', range: fraction },
  acc_at_3: { label: 'acc@3', kind: 'percent', range: fraction },
  acc_at_5: { label: 'acc@5', kind: 'percent', range: fraction },
  file_precision: { label: 'file precision', kind: 'score', range: fraction },
  mean_tokens: { label: 'tokens (mean)', kind: 'mean', range: nonNegative },
  expected_held: { label: 'needed files expected held', kind: 'mean', range: nonNegative },
  held_full_text: { label: 'needed files held, full text', kind: 'count', range: count },
  held_any_form: { label: 'needed files held, any form', kind: 'count', range: count },
  // The verdict an ingested corpus's report leads with (standings.ts): where a strategy stands at
  // one budget, and the needed files there, over the cells where a bundle is expected; its all in
  // full text with the 95% Wilson interval, and McNemar's exact p against the top.
  standing: { label: 'standing' },
  needed_files: { label: 'needed files', kind: 'count', range: count },
  whole_low: { label: '95% low', kind: 'percent', range: fraction },
  whole_high: { label: '95% high', kind: 'percent', range: fraction },
  p_top: { label: 'p against the top', kind: 'score', range: fraction },

  // A strategy against the oracle (stats.ts, oracleGap): the strategy minus the oracle in tokens,
  // the oracle minus the strategy in recall.
  token_gap_min: { label: 'token gap min', kind: 'count', range: signedCount },
  token_gap_max: { label: 'token gap max', kind: 'count', range: signedCount },
  token_gap_mean: { label: 'token gap mean', kind: 'mean', range: real },
  must_gap_mean: { label: 'must gap mean', kind: 'score', range: fractionGap },
  should_gap_mean: { label: 'should gap mean', kind: 'score', range: fractionGap },

  // A strategy against `exact` (report.md's exact sections, the survey).
  refused_by: { label: 'refused by' },
  legal_bundle_existed: { label: 'legal bundle existed' },
  false_refusals: { label: 'false refusals', kind: 'count', range: count },
  silent_omissions: { label: 'silent omissions', kind: 'count', range: count },
  incomplete_bundles: { label: 'incomplete bundles', kind: 'count', range: count },
  preferred_gap: { label: 'preferred gap', kind: 'score', range: real },
  discretionary_gap: { label: 'discretionary gap', kind: 'score', range: real },
  exact_token_gap: { label: 'token gap', kind: 'mean', range: real },
  compared: { label: 'compared', kind: 'count', range: count },
  refusals_proven: { label: 'refusals proven' },
  refusals_unproven: { label: 'refusals unproven', kind: 'count', range: count },
  bundles_optimal: { label: 'bundles proven optimal' },
  reported_gap_median: { label: 'reported gap, median', kind: 'score', range: nonNegative },
  reported_gap_worst: { label: 'reported gap, worst', kind: 'score', range: nonNegative },

  // Prefix stability (prefix.ts), between the budgets of a case and between consecutive cases.
  budget_pairs: { label: 'budget pairs', kind: 'count', range: count },
  case_pairs: { label: 'case pairs', kind: 'count', range: count },
  prefix_tokens: { label: 'prefix', kind: 'mean', range: nonNegative },
  prefix_share: { label: 'share', kind: 'score', range: fraction },
  prefix_saving: { label: 'saving', kind: 'score', range: fraction },

  // A decision trace (`ctxbench trace`, report.html's opened cell), and a refusal's record.
  blocking: { label: 'blocking' },
  candidate: { label: 'candidate', field: 'candidate_id' },
  decision: { label: 'decision', field: 'decision' },
  reason: { label: 'reason', field: 'reason_code' },
  detail: { label: 'detail', field: 'reason_detail' },
  class: { label: 'class', field: 'priority_band' },
  relevance: { label: 'relevance', kind: 'score', range: fraction, field: 'relevance' },
  marginal: { label: 'marginal', kind: 'count', range: count, field: 'marginal_cost' },
  before: { label: 'before', kind: 'count', range: count, field: 'budget_before' },
  after: { label: 'after', kind: 'count', range: signedCount, field: 'budget_after' },
  dependencies: { label: 'dependencies' },
  position: { label: 'position', kind: 'count', range: count, field: 'position' },
  blocked_by: { label: 'blocked by' },
  budget_used: { label: 'budget used' },
  diagnostic: { label: 'diagnostic' },

  // A bundle's items, as report.html lists them: each is its field's name.
  item_id: { label: 'id', field: 'id' },
  item_kind: { label: 'kind', field: 'kind' },
  item_tokens: { label: 'token_count', field: 'token_count' },
  item_source: { label: 'source', field: 'source' },
} as const satisfies Record<string, Column>;

export type ColumnName = keyof typeof COLUMNS;

/** The SWE-bench paper's Avg, All and Any, in full text and then in any form (found-files.ts). */
const FOUND = [
  'avg_full_text',
  'all_full_text',
  'any_full_text',
  'avg_any_form',
  'all_any_form',
  'any_any_form',
] as const;
/** File accuracy at 1, 3 and 5 of a strategy's own ranking (SweRank's measure). */
const ACCURACY = ['acc_at_1', 'acc_at_3', 'acc_at_5'] as const;

/**
 * Each report table's columns beyond the strategy figures' own tables (tables.ts), in order: a
 * column of COLUMNS, or a strategy figure where the table shows one (catalogue.ts resolves both).
 */
export const COLUMN_TABLES = {
  localization: [
    'strategy',
    ...FOUND,
    'must_token_share',
    'first_rank',
    ...ACCURACY,
    'file_precision',
    'mean_tokens',
    'refusals',
  ],
  // The same, a line per repository and strategy, for a corpus of several repositories (SWE-bench).
  localization_by_repository: ['repository', 'cases', 'strategy', ...FOUND, ...ACCURACY],
  verdict: [
    'strategy',
    'standing',
    'all_full_text',
    'whole_low',
    'whole_high',
    'p_top',
    'held_full_text',
    'all_any_form',
    'held_any_form',
    'mean_tokens',
  ],
  // The headline `study` and `report` print for an ingested corpus: the file-recall figures over
  // every budget, few and short enough for a 100-column terminal.
  ingested_headline: [
    'strategy',
    'all_full_text',
    'avg_full_text',
    'all_any_form',
    'mean_tokens',
    'refusals',
    'violations',
  ],
  oracle_gap: [
    'strategy',
    'token_gap_min',
    'token_gap_max',
    'token_gap_mean',
    'must_gap_mean',
    'should_gap_mean',
  ],
  prefix: [
    'strategy',
    'budget_pairs',
    'prefix_tokens',
    'prefix_share',
    'prefix_saving',
    'case_pairs',
    'prefix_tokens',
    'prefix_share',
    'prefix_saving',
  ],
  exact_refusals: ['case', 'budget', 'refused_by', 'legal_bundle_existed'],
  exact_against: [
    'strategy',
    'refusals',
    'false_refusals',
    'silent_omissions',
    'illegal_bundles',
    'preferred_gap',
    'discretionary_gap',
    'exact_token_gap',
    'compared',
  ],
  survey: [
    'strategy',
    'refusals',
    'false_refusals',
    'illegal_bundles',
    'incomplete_bundles',
    'preferred_gap',
    'discretionary_gap',
    'exact_token_gap',
  ],
  certified: [
    'strategy',
    'refusals_proven',
    'refusals_unproven',
    'bundles_optimal',
    'reported_gap_median',
    'reported_gap_worst',
  ],
  trace: [
    'blocking',
    'candidate',
    'decision',
    'reason',
    'detail',
    'class',
    'relevance',
    'marginal',
    'before',
    'after',
    'dependencies',
    'position',
  ],
  // The trace as report.html's opened cell shows it: the entry's own fields, read by name.
  page_trace: [
    'candidate',
    'decision',
    'reason',
    'detail',
    'class',
    'relevance',
    'marginal',
    'before',
    'after',
    'position',
  ],
  items: ['position', 'item_id', 'item_kind', 'item_tokens', 'item_source'],
  refusal_facts: ['reason', 'blocked_by', 'budget_used', 'diagnostic'],
  // What report.html's opened cell says of its compilation, in order.
  cell_facts: [
    'outcome',
    'reason',
    'expected',
    'budget_tokens',
    'rendered_tokens',
    'must_recall',
    'illegal_admission',
  ],
} as const satisfies Record<string, readonly string[]>;

export type ColumnTable = keyof typeof COLUMN_TABLES;
