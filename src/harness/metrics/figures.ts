/**
 * The catalogue's figures of a strategy over its rows (summary.json holds them), and the figures of
 * one compilation that `compare` tests cell by cell. The row figures they build on are in
 * row-figures.ts; the populations their means and rates count among, in samples.ts.
 */
import { REQUIREMENT_CLASSES } from '../../compiler/index.js';
import type { Row, StrategyStats } from '../types.js';
import { STRATEGY_ERROR, TOKENIZERS, VIOLATION_KINDS } from '../vocabulary.js';
import {
  type Described,
  type Direction,
  type Kind,
  meanRange,
  RANGES,
  type Range,
  type Unit,
} from './described.js';
import { ROW_MEASURES, ROW_METRICS } from './row-figures.js';
import { measureSample, SAMPLES, type Sample } from './samples.js';

/** A figure of one strategy over its rows, and how to read it off. */
export interface Figure extends Described {
  readonly name: string;
  readonly of: (s: StrategyStats) => number | null;
  /** For a count of compilations that is a rate: how many it counts among. */
  readonly among?: (s: StrategyStats) => number;
  /** For a mean over rows: the values it is the mean of, for an interval around it. */
  readonly sample?: Sample;
}

interface Extra {
  readonly among?: (s: StrategyStats) => number;
  readonly sample?: Sample;
}

const figure = (
  name: string,
  label: string,
  kind: Kind,
  unit: Unit,
  direction: Direction,
  range: Range,
  of: Figure['of'],
  extra: Extra = {},
): Figure => ({ name, label, kind, unit, direction, range, of, ...extra });

const { fraction, yesNo, count, nonNegative, real } = RANGES;

/**
 * What a rate counts among: every compilation, or the bundles returned. The one definition of each
 * rate's denominator: `findings`' `{{rate}}` and report.html's intervals both read it here.
 */
const compilations = (s: StrategyStats): number => s.rows;
const bundles = (s: StrategyStats): number => s.rows - s.refusals - s.errors;

/** A count of compilations among `among` of them: a rate, quoted with its interval. */
const rate = (
  name: string,
  label: string,
  direction: Direction,
  of: Figure['of'],
  among: (s: StrategyStats) => number,
) => figure(name, label, 'count', 'compilations', direction, count, of, { among });

/** A count of admitted items (or violations) summed over the rows: lower is better. */
const items = (name: string, label: string, of: Figure['of']) =>
  figure(name, label, 'count', 'items', 'lower', count, of);

/** A mean of a row metric that is a fraction, over the rows its sample names. */
const share = (name: keyof typeof SAMPLES, label: string, of: Figure['of']) =>
  figure(name, label, 'score', 'fraction', 'higher', fraction, of, { sample: SAMPLES[name] });

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
    nonNegative,
    (s) => s.real_tokens[t].declared_to_real,
  ),
  figure(`over_budget_${t}`, `over budget by ${t}`, 'count', 'compilations', 'lower', count, (s) => {
    return s.real_tokens[t].overruns;
  }),
]);

// A mean of a measure is no longer whole; a sum of one keeps its range.
const measureFigures = ROW_MEASURES.map((m) =>
  figure(
    m.name,
    m.label,
    m.kind,
    m.unit,
    m.direction,
    m.over === 'mean' ? meanRange(m.range) : m.range,
    (s) => s.measures[m.name],
    m.over === 'mean' ? { sample: measureSample(m.name) } : {},
  ),
);

/** Tokens of a strategy's bundles by what holds them: the frame and each requirement class. */
export const compositionFigures = [
  figure('frame_tokens', 'frame', 'count', 'tokens', null, count, (s) => s.composition?.frame ?? null),
  ...REQUIREMENT_CLASSES.map((k) =>
    figure(
      `${k.toLowerCase()}_tokens`,
      k.toLowerCase(),
      'count',
      'tokens',
      null,
      count,
      (s) => s.composition?.classes[k] ?? null,
    ),
  ),
];

/**
 * Every strategy figure. Must recall is a mean over three populations, each its own name and
 * label: the compilations expected to return a bundle (`must recall`, the headline's), every
 * compilation (`must recall (all cells)`), and one compilation (the row's, row-figures.ts).
 */
export const FIGURES: readonly Figure[] = [
  figure('rows', 'compilations', 'count', 'compilations', null, count, compilations),
  rate('correct', 'correct', 'higher', (s) => s.correct, compilations),
  rate('wrong', 'wrong', 'lower', (s) => s.wrong, compilations),
  rate('bundles', 'bundles', null, bundles, compilations),
  rate('refusals', 'refusals', null, (s) => s.refusals, compilations),
  rate('errors', 'errors', 'lower', (s) => s.errors, compilations),
  items('illegal', 'illegal', (s) => s.illegal),
  rate('illegal_bundles', 'illegal bundles', 'lower', (s) => s.illegal_bundles, bundles),
  rate('over_budget', 'over budget', 'lower', (s) => s.over_budget, bundles),
  items('violations', 'violations', violationTotal),
  ...VIOLATION_KINDS.map((k) => items(k, k, (s) => s.violations[k])),
  // The violations of a bundle's structure, as against an item's own gates.
  items('structural', 'dependency + group', (s) => s.violations.dependency + s.violations.group),
  items('distractor', 'distractor', (s) => s.distractor),
  items('harmful', 'harmful', (s) => s.harmful),
  share('must_recall_feasible', 'must recall', (s) => s.must_recall_feasible),
  share('must_recall_all', 'must recall (all cells)', (s) => s.must_recall_all),
  share('should_recall', 'should recall', (s) => s.should_recall),
  share('precision', 'precision', (s) => s.precision),
  items('over_admission', 'over-admission', (s) => s.over_admission),
  items('under_admission', 'under-admission', (s) => s.under_admission),
  // "tokens" alone: every token figure of a strategy is of rendered bundles, and the headline
  // must fit 100 columns.
  figure('rendered_tokens', 'tokens', 'count', 'tokens', 'lower', count, (s) => s.rendered_tokens),
  figure(
    'budget_slack_feasible',
    'budget slack',
    'mean',
    'tokens',
    null,
    real,
    (s) => s.budget_slack_feasible,
    {
      sample: SAMPLES.budget_slack_feasible,
    },
  ),
  figure('real_token_bundles', 'bundles counted', 'count', 'compilations', null, count, (s) => {
    return s.real_tokens.o200k.bundles;
  }),
  ...realTokenFigures,
  ...measureFigures,
  ...compositionFigures,
];

/** The real-token figures, in the order report.md's table shows them. */
export const realTokenNames = realTokenFigures.map((f) => f.name);

const byName = new Map(FIGURES.map((f) => [f.name, f]));

/** A strategy figure by name, or undefined for a name that is none. */
export const figureNamed = (name: string): Figure | undefined => byName.get(name);

/**
 * A figure of one compilation that `compare` tests cell by cell (paired.ts): a yes or no, or a
 * number; null where the row does not define it (an error row, a refusal's measures).
 */
export interface PairedFigure extends Described {
  readonly name: string;
  readonly of: (r: Row) => boolean | number | null;
}

const strategyWords = (name: string): Described => {
  const { label, kind, unit, direction } = byName.get(name) as Figure;
  return { label, kind, unit, direction, range: count };
};

/**
 * Every row figure with a better direction, in the order `compare` lists them: the outcome, the
 * book's metrics, the tokens, then the field's measures. A count with no better side (must items)
 * is the same on both sides of a pair and has nothing to test. A refusal and the tokens carry the
 * words of the strategy figures they add up to.
 */
export const PAIRED_FIGURES: readonly PairedFigure[] = [
  {
    name: 'refusals',
    ...strategyWords('refusals'),
    range: yesNo,
    of: (r) => (r.reason === STRATEGY_ERROR ? null : !r.success),
  },
  ...ROW_METRICS.filter((m) => m.direction !== null).map((m) => ({ ...m, of: (r: Row) => r[m.name] })),
  {
    name: 'rendered_tokens',
    ...strategyWords('rendered_tokens'),
    direction: null,
    of: (r) => (r.reason === STRATEGY_ERROR ? null : r.rendered_tokens),
  },
  ...ROW_MEASURES.map((m) => ({ ...m, of: (r: Row) => r.measures?.[m.name] ?? null })),
];
