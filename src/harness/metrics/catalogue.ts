/**
 * The metric catalogue: every figure ctxbench reports, written once, with its name, the label a
 * table heads it with, how it is written, its unit, which way is better, and the tables that show
 * it. The rows and rows.csv, the CLI's headline, report.md, report.html, `compare` and `findings`
 * all read it, so a new figure is an entry here and its name in the tables that should show it.
 */
import { REQUIREMENT_CLASSES } from '../../compiler/index.js';
import type { Metrics, ScalarMeasure, StrategyStats } from '../types.js';
import { TOKENIZERS, VIOLATION_KINDS } from '../vocabulary.js';

/** How a figure is written: report/format.ts gives each kind its places. */
export type Kind = 'count' | 'score' | 'mean' | 'factor' | 'percent' | 'ms';

/** Which way is better; null where neither is (how many rows a strategy has). */
export type Direction = 'higher' | 'lower' | null;

/** What one unit of a figure is: compilations (rows), admitted items, tokens, or a ratio. */
export type Unit = 'compilations' | 'items' | 'tokens' | 'fraction' | 'ratio';

export interface Described {
  /** Lower-case words, the same in every table that shows the figure. */
  readonly label: string;
  readonly kind: Kind;
  /** What one unit of the figure is. */
  readonly unit: Unit;
  readonly direction: Direction;
}

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
  type: RowMetric['type'] = 'number',
): RowMetric => ({ name, label, kind, unit, direction, type });

/** Every row metric, in the order rows.jsonl and rows.csv hold them. */
export const ROW_METRICS: readonly RowMetric[] = [
  metric('status_correct', 'correct', 'count', 'compilations', 'higher', 'boolean'),
  metric('budget_compliant', 'within budget', 'count', 'compilations', 'higher', 'boolean'),
  metric('must_recall', 'must recall', 'score', 'fraction', 'higher'),
  metric('should_recall', 'should recall', 'score', 'fraction', 'higher'),
  metric('must_total', 'must items', 'count', 'items', null),
  metric('should_total', 'should items', 'count', 'items', null),
  metric('precision', 'precision', 'score', 'fraction', 'higher'),
  metric('distractor_admission', 'distractor', 'count', 'items', 'lower'),
  metric('harmful_admission', 'harmful', 'count', 'items', 'lower'),
  metric('illegal_admission', 'illegal', 'count', 'items', 'lower'),
  ...VIOLATION_KINDS.map((k) => metric(`${k}_violations`, k, 'count', 'items', 'lower')),
  metric('under_admission', 'under-admission', 'count', 'items', 'lower'),
  metric('over_admission', 'over-admission', 'count', 'items', 'lower'),
  metric('budget_slack', 'budget slack', 'count', 'tokens', null),
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
  over: RowMeasure['over'],
): RowMeasure => ({ name, label, kind, unit, direction, over });

/** Every bundle measure, in the order rows.csv appends them. */
export const ROW_MEASURES: readonly RowMeasure[] = [
  // Long contexts lose what sits in their middle: less of the must content there is better.
  measure('must_middle_share', 'must in middle', 'score', 'fraction', 'lower', 'mean'),
  measure('mean_position', 'needed at', 'score', 'fraction', null, 'mean'),
  measure('ndcg', 'nDCG', 'score', 'fraction', 'higher', 'mean'),
  // Its mean over bundles is the mean reciprocal rank.
  measure('first_must_rr', 'first must RR', 'score', 'fraction', 'higher', 'mean'),
  measure('useful_share', 'useful share', 'score', 'fraction', 'higher', 'mean'),
  measure('redundant_tokens', 'redundant', 'count', 'tokens', 'lower', 'sum'),
  measure('budget_use', 'budget use', 'factor', 'ratio', null, 'mean'),
  measure('overshoot_tokens', 'overshoot', 'count', 'tokens', 'lower', 'sum'),
];

/** A figure of one strategy over its rows (summary.json holds them), and how to read it off. */
export interface Figure extends Described {
  readonly name: string;
  readonly of: (s: StrategyStats) => number | null;
  /** For a count of compilations that is a rate: how many it counts among. */
  readonly among?: (s: StrategyStats) => number;
}

const figure = (
  name: string,
  label: string,
  kind: Kind,
  unit: Unit,
  direction: Direction,
  of: Figure['of'],
  among?: Figure['among'],
): Figure => ({ name, label, kind, unit, direction, of, ...(among === undefined ? {} : { among }) });

/** What a rate counts among: every compilation, or the bundles returned. */
const compilations = (s: StrategyStats): number => s.rows;
const bundles = (s: StrategyStats): number => s.rows - s.refusals - s.errors;

/** A count of compilations among `among` of them: a rate, which `findings` quotes with its interval. */
const rate = (name: string, label: string, direction: Direction, of: Figure['of'], among: Figure['among']) =>
  figure(name, label, 'count', 'compilations', direction, of, among);

/** The six kinds summed: one figure for how often a strategy broke the rules. */
export const violationTotal = (s: StrategyStats): number =>
  VIOLATION_KINDS.reduce((n, kind) => n + s.violations[kind], 0);

const realTokenFigures = TOKENIZERS.flatMap((t) => [
  figure(
    `declared_to_real_${t}`,
    `declared / real (${t})`,
    'factor',
    'ratio',
    null,
    (s) => s.real_tokens[t].declared_to_real,
  ),
  figure(
    `over_budget_${t}`,
    `over budget by ${t}`,
    'count',
    'compilations',
    'lower',
    (s) => s.real_tokens[t].overruns,
  ),
]);

const measureFigures = ROW_MEASURES.map((m) =>
  figure(m.name, m.label, m.kind, m.unit, m.direction, (s) => s.measures[m.name]),
);

/** Tokens of a strategy's bundles by what holds them: the frame and each requirement class. */
const compositionFigures = [
  figure('frame_tokens', 'frame', 'count', 'tokens', null, (s) => s.composition?.frame ?? null),
  ...REQUIREMENT_CLASSES.map((k) =>
    figure(
      `${k.toLowerCase()}_tokens`,
      k.toLowerCase(),
      'count',
      'tokens',
      null,
      (s) => s.composition?.classes[k] ?? null,
    ),
  ),
];

/** Every strategy figure. */
export const FIGURES: readonly Figure[] = [
  figure('rows', 'compilations', 'count', 'compilations', null, (s) => s.rows),
  rate('correct', 'correct', 'higher', (s) => s.correct, compilations),
  rate('wrong', 'wrong', 'lower', (s) => s.wrong, compilations),
  rate('bundles', 'bundles', null, bundles, compilations),
  rate('refusals', 'refusals', null, (s) => s.refusals, compilations),
  rate('errors', 'errors', 'lower', (s) => s.errors, compilations),
  figure('illegal', 'illegal', 'count', 'items', 'lower', (s) => s.illegal),
  rate('illegal_bundles', 'illegal bundles', 'lower', (s) => s.illegal_bundles, bundles),
  rate('over_budget', 'over budget', 'lower', (s) => s.over_budget, bundles),
  figure('violations', 'violations', 'count', 'items', 'lower', violationTotal),
  ...VIOLATION_KINDS.map((k) => figure(k, k, 'count', 'items', 'lower', (s) => s.violations[k])),
  figure('distractor', 'distractor', 'count', 'items', 'lower', (s) => s.distractor),
  figure('harmful', 'harmful', 'count', 'items', 'lower', (s) => s.harmful),
  figure('must_recall_feasible', 'must recall', 'score', 'fraction', 'higher', (s) => s.must_recall_feasible),
  figure('should_recall', 'should recall', 'score', 'fraction', 'higher', (s) => s.should_recall),
  figure('precision', 'precision', 'score', 'fraction', 'higher', (s) => s.precision),
  figure('over_admission', 'over-admission', 'count', 'items', 'lower', (s) => s.over_admission),
  figure('under_admission', 'under-admission', 'count', 'items', 'lower', (s) => s.under_admission),
  // "tokens" alone: every token figure of a strategy is of rendered bundles, and the headline
  // must fit 100 columns.
  figure('rendered_tokens', 'tokens', 'count', 'tokens', 'lower', (s) => s.rendered_tokens),
  figure('budget_slack_feasible', 'budget slack', 'mean', 'tokens', null, (s) => s.budget_slack_feasible),
  figure(
    'real_token_bundles',
    'bundles counted',
    'count',
    'compilations',
    null,
    (s) => s.real_tokens.o200k.bundles,
  ),
  ...realTokenFigures,
  ...measureFigures,
  ...compositionFigures,
];

/**
 * Which figures each table shows, in its column order. `headline`: what `study` prints (and the
 * README shows), narrow enough for 100 columns; `compare`: the per-strategy deltas; the rest are
 * report.md's tables (report.html shows the headline too).
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
  real_tokens: ['real_token_bundles', ...realTokenFigures.map((f) => f.name)],
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

const byName = new Map(FIGURES.map((f) => [f.name, f]));

/** The figures a table shows, in order. */
export const figuresOf = (table: TableName): readonly Figure[] =>
  TABLES[table].map((name) => byName.get(name) as Figure);

const rowByName = new Map(ROW_METRICS.map((m) => [m.name as string, m]));

/** A row metric by name, or undefined for a name that is none. */
export const rowMetric = (name: string): RowMetric | undefined => rowByName.get(name);
