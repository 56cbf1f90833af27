/**
 * Which strategy figures each table shows, in its column order; every figure named is one of
 * figures.ts, so a table's headers are the figures' labels and its numbers keep their ranges.
 */
import { VIOLATION_KINDS } from '../vocabulary.js';
import { compositionFigures, type Figure, figureNamed, realTokenNames } from './figures.js';

/**
 * `headline`: what `study` prints (and the README shows), narrow enough for 100 columns;
 * `compare`: the per-strategy deltas; `intervals`: report.html's figures with their intervals; the
 * rest are report.md's tables (report.html shows the headline too).
 */
export const TABLES = {
  headline: [
    'correct',
    'refusals',
    'errors',
    'violations',
    'distractor',
    'harmful',
    'must_recall_feasible',
    'rendered_tokens',
  ],
  compare: [
    'correct',
    'refusals',
    'errors',
    'illegal',
    'violations',
    'distractor',
    'harmful',
    'must_recall_feasible',
    'rendered_tokens',
  ],
  // Rates with their Wilson interval, means with a bootstrap interval.
  intervals: ['rows', 'correct', 'refusals', 'must_recall_feasible', 'ndcg', 'useful_share'],
  outcomes: ['correct', 'rows', 'bundles', 'refusals', 'errors'],
  // The book's column order.
  violations: [
    'dependency',
    'group',
    'floor',
    'distractor',
    ...VIOLATION_KINDS.slice(0, 3),
    'illegal',
    'harmful',
  ],
  summary: [
    'correct',
    'refusals',
    'wrong',
    ...VIOLATION_KINDS,
    'distractor',
    'harmful',
    'must_recall_feasible',
    'should_recall',
    'precision',
    'over_admission',
    'under_admission',
    'rendered_tokens',
    'budget_slack_feasible',
  ],
  // One cell per budget, these figures in it.
  per_budget: [
    'correct',
    'illegal',
    'distractor',
    'harmful',
    'must_recall_all',
    'rendered_tokens',
    'structural',
  ],
  real_tokens: ['real_token_bundles', ...realTokenNames],
  // The field's measures (measures.ts): where the needed content lands and how it is ranked...
  placement: ['bundles', 'must_middle_share', 'mean_position', 'ndcg', 'first_must_rr'],
  // ...how much of the window serves the task, and how much of the budget is used...
  window: ['bundles', 'useful_share', 'redundant_tokens', 'budget_use', 'over_budget', 'overshoot_tokens'],
  // ...and what the window is made of.
  composition: ['rendered_tokens', ...compositionFigures.map((f) => f.name)],
  // The compilers against the peers: every way a bundle can break the rules, each kind apart.
  peers: [
    'correct',
    'refusals',
    'errors',
    'illegal_bundles',
    'over_budget',
    ...VIOLATION_KINDS,
    'distractor',
    'harmful',
    'must_recall_feasible',
    'rendered_tokens',
  ],
  peers_budget: [
    'correct',
    'refusals',
    'illegal_bundles',
    'over_budget',
    'violations',
    'distractor',
    'harmful',
    'must_recall_feasible',
    'rendered_tokens',
  ],
} as const satisfies Record<string, readonly string[]>;

export type TableName = keyof typeof TABLES;

/** The figures a table shows, in order. */
export const figuresOf = (table: TableName): readonly Figure[] =>
  TABLES[table].map((name) => figureNamed(name) as Figure);
