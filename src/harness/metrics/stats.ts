/**
 * Aggregates over rows: the numbers behind summary.json and every report table. Everything is
 * computed from `rows.jsonl`; nothing is typed in.
 */
import { REQUIREMENT_CLASSES, type RequirementClass } from '../../compiler/index.js';
import type { BudgetName, RealTokenStats, Row, ScalarMeasure, StrategyStats, Tokenizer } from '../types.js';
import { BUDGETS, STRATEGY_ERROR, TOKENIZERS, VIOLATION_KINDS } from '../vocabulary.js';
import { measureSample, ROW_MEASURES, SAMPLES, scoredRows } from './catalogue.js';

const sum = (xs: readonly number[]): number => xs.reduce((s, x) => s + x, 0);
export const mean = (xs: readonly number[]): number | null => (xs.length === 0 ? null : sum(xs) / xs.length);

/** The middle value, the lower of the two middle ones of an even count (always a value given); null with none. */
export const lowerMedian = (xs: readonly number[]): number | null =>
  xs.length === 0 ? null : ([...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)] as number);
const numbers = (rows: readonly Row[], pick: (r: Row) => number | null): number[] =>
  rows.map(pick).filter((x): x is number => x !== null);
const count = (rows: readonly Row[], pick: (r: Row) => boolean | null): number => rows.filter(pick).length;

export function strategyStats(rows: readonly Row[]): StrategyStats {
  const scored = scoredRows(rows);
  const total = (pick: (r: Row) => number | null) => sum(numbers(scored, pick));
  return {
    rows: rows.length,
    correct: count(scored, (r) => r.status_correct),
    wrong: count(scored, (r) => r.status_correct === false),
    refusals: count(scored, (r) => !r.success),
    errors: rows.length - scored.length,
    illegal: total((r) => r.illegal_admission),
    illegal_bundles: count(scored, (r) => r.success && r.audit?.legal === false),
    over_budget: count(scored, (r) => r.budget_compliant === false),
    violations: {
      scope: total((r) => r.scope_violations),
      freshness: total((r) => r.freshness_violations),
      authority: total((r) => r.authority_violations),
      floor: total((r) => r.floor_violations),
      dependency: total((r) => r.dependency_violations),
      group: total((r) => r.group_violations),
    },
    distractor: total((r) => r.distractor_admission),
    harmful: total((r) => r.harmful_admission),
    must_recall_feasible: mean(SAMPLES.must_recall_feasible(rows)),
    must_recall_all: mean(SAMPLES.must_recall_all(rows)),
    should_recall: mean(SAMPLES.should_recall(rows)),
    precision: mean(SAMPLES.precision(rows)),
    over_admission: total((r) => r.over_admission),
    under_admission: total((r) => r.under_admission),
    rendered_tokens: total((r) => r.rendered_tokens),
    budget_slack_feasible: mean(SAMPLES.budget_slack_feasible(rows)),
    real_tokens: Object.fromEntries(TOKENIZERS.map((t) => [t, realTokenStats(scored, t)])) as Record<
      Tokenizer,
      RealTokenStats
    >,
    ...measureStats(scored),
  };
}

/** The bundle measures of a strategy's rows that carry them (none in a run written before them). */
function measureStats(scored: readonly Row[]): Pick<StrategyStats, 'measures' | 'composition'> {
  const measured = scored.flatMap((r) => (r.measures ? [r.measures] : []));
  const measures = Object.fromEntries(
    ROW_MEASURES.map((m) => {
      const xs = measureSample(m.name)(scored);
      return [m.name, m.over === 'mean' ? mean(xs) : measured.length === 0 ? null : sum(xs)];
    }),
  ) as Record<ScalarMeasure, number | null>;
  if (measured.length === 0) return { measures, composition: null };
  const roles: Record<string, number> = {};
  const classes = Object.fromEntries(REQUIREMENT_CLASSES.map((k) => [k, 0])) as Record<
    RequirementClass,
    number
  >;
  let frame = 0;
  for (const { composition: c } of measured) {
    frame += c.frame;
    for (const [role, n] of Object.entries(c.roles)) roles[role] = (roles[role] ?? 0) + n;
    for (const k of REQUIREMENT_CLASSES) classes[k] += c.classes[k];
  }
  return { measures, composition: { frame, roles, classes } };
}

/**
 * Bundles against what a real tokenizer makes of their rendered text. A run written before the
 * counts existed has none: its bundles are not counted.
 */
function realTokenStats(rows: readonly Row[], t: Tokenizer): RealTokenStats {
  const counted = rows.flatMap((r) => {
    const real = r.success ? r.audit?.real_tokens?.[t] : undefined;
    return real === undefined ? [] : [{ row: r, real }];
  });
  return {
    bundles: counted.length,
    declared_to_real: mean(counted.filter((c) => c.real > 0).map((c) => c.row.rendered_tokens / c.real)),
    overruns: counted.filter(
      (c) => c.row.rendered_tokens <= c.row.budget_tokens && c.real > c.row.budget_tokens,
    ).length,
  };
}

/** The six violation kinds of one row summed; 0 for a kind the row leaves null (an error row). */
export const rowViolations = (r: Row): number =>
  VIOLATION_KINDS.reduce((n, kind) => n + (r[`${kind}_violations`] ?? 0), 0);

/** The strategies present in the rows, in the rows' (registry) order. */
export const strategiesOf = (rows: readonly Row[]): string[] => [...new Set(rows.map((r) => r.strategy))];

export const rowsOf = (rows: readonly Row[], strategy: string, budget?: BudgetName): Row[] =>
  rows.filter((r) => r.strategy === strategy && (budget === undefined || r.budget === budget));

/** Each strategy's stats, in the order of `names` (the rows' own by default). */
export const statsByStrategy = (
  rows: readonly Row[],
  names: readonly string[] = strategiesOf(rows),
): Map<string, StrategyStats> => new Map(names.map((n) => [n, strategyStats(rowsOf(rows, n))]));

export function summary(rows: readonly Row[]) {
  return { strategies: Object.fromEntries(statsByStrategy(rows)) };
}

/** One strategy's stats at each budget: report.md's per-budget table and the charts read them. */
export function budgetStats(rows: readonly Row[], strategy: string): Record<BudgetName, StrategyStats> {
  return Object.fromEntries(BUDGETS.map((b) => [b, strategyStats(rowsOf(rows, strategy, b))])) as Record<
    BudgetName,
    StrategyStats
  >;
}

export interface Gap {
  readonly token_min: number | null;
  readonly token_max: number | null;
  readonly token_mean: number | null;
  readonly must_mean: number | null;
  readonly should_mean: number | null;
}

/**
 * A strategy against the oracle: rendered tokens over the cells where both returned a bundle,
 * recall gaps (oracle minus strategy) over the cells where both are defined.
 */
export function oracleGap(rows: readonly Row[], strategy: string, oracle = 'oracle'): Gap {
  const at = new Map(rowsOf(rows, oracle).map((r) => [`${r.case}/${r.budget}`, r]));
  const tokens: number[] = [];
  const must: number[] = [];
  const should: number[] = [];
  for (const r of rowsOf(rows, strategy)) {
    const o = at.get(`${r.case}/${r.budget}`);
    if (o === undefined || r.reason === STRATEGY_ERROR || o.reason === STRATEGY_ERROR) continue;
    if (r.success && o.success) tokens.push(r.rendered_tokens - o.rendered_tokens);
    if (r.must_recall !== null && o.must_recall !== null) must.push(o.must_recall - r.must_recall);
    if (r.should_recall !== null && o.should_recall !== null) should.push(o.should_recall - r.should_recall);
  }
  return {
    token_min: tokens.length ? Math.min(...tokens) : null,
    token_max: tokens.length ? Math.max(...tokens) : null,
    token_mean: mean(tokens),
    must_mean: mean(must),
    should_mean: mean(should),
  };
}

/** A proportion and its 95% Wilson score interval; null bounds when there is nothing to count. */
export interface Rate {
  readonly count: number;
  readonly of: number;
  readonly low: number | null;
  readonly high: number | null;
}

/**
 * The Wilson score interval at 95% (z = 1.96): unlike the normal approximation it stays within
 * [0, 1] and says something useful at 0 of n, which is the count this project hopes to see.
 */
export function wilson(count: number, of: number, z = 1.96): Rate {
  if (of === 0) return { count, of, low: null, high: null };
  const p = count / of;
  const z2 = z * z;
  const centre = (p + z2 / (2 * of)) / (1 + z2 / of);
  const half = (z * Math.sqrt((p * (1 - p)) / of + z2 / (4 * of * of))) / (1 + z2 / of);
  return { count, of, low: Math.max(0, centre - half), high: Math.min(1, centre + half) };
}
