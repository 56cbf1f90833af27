/**
 * Each strategy against `exact`, the proven optimum, from rows alone: its refusals, the false
 * ones (refused where exact found a legal bundle), its bundles that are illegal or silently lack
 * MANDATORY or REQUIRED content, and its objective gaps where both returned a bundle; and what a
 * strategy that certifies its own answers says of them. One owner for these figures: report.md's
 * and report.html's exact sections and the survey's tables render them (issue 48).
 */
import { median } from 'simple-statistics';
import type { Row } from '../types.js';
import { STRATEGY_ERROR } from '../vocabulary.js';
import { mean, type Rate, wilson } from './stats.js';

/** A cell of the matrix: one case at one budget, as every strategy is asked it. */
export const cellKey = (r: Pick<Row, 'case' | 'budget'>): string => `${r.case}/${r.budget}`;

/** exact's row of each cell of `rows`. */
export const exactRows = (rows: readonly Row[]): ReadonlyMap<string, Row> =>
  new Map(rows.filter((r) => r.strategy === 'exact').map((r) => [cellKey(r), r]));

/** One strategy against exact, in counts; the gaps are means (null where nothing was compared). */
export interface AgainstExact {
  readonly strategy: string;
  /** Its rows that are not errors. */
  readonly cells: number;
  readonly refusals: number;
  /** The cells where exact found a legal bundle, and the strategy's refusals among them. */
  readonly feasible: number;
  readonly falseRefusals: number;
  readonly bundles: number;
  readonly illegal: number;
  /** Bundles lacking MANDATORY or REQUIRED content or a named id. */
  readonly incomplete: number;
  /** exact minus the strategy in earned relevance; the strategy minus exact in rendered tokens. */
  readonly gap: {
    readonly preferred: number | null;
    readonly discretionary: number | null;
    readonly tokens: number | null;
  };
  /** The cells where both returned a bundle, which the gaps average over. */
  readonly compared: number;
}

/** `strategy`'s rows of `rows` against exact's (`exactAt`, exactRows of the same rows). */
export function againstExact(
  rows: readonly Row[],
  strategy: string,
  exactAt: ReadonlyMap<string, Row> = exactRows(rows),
): AgainstExact {
  const own = rows.filter((r) => r.strategy === strategy && r.reason !== STRATEGY_ERROR);
  const bundles = own.filter((r) => r.success);
  const feasible = own.filter((r) => {
    const e = exactAt.get(cellKey(r));
    return e?.success === true && e.audit !== null;
  });
  const both = bundles.flatMap((r) => {
    const e = exactAt.get(cellKey(r));
    return e?.success && e.audit && r.audit ? [{ r: r.audit.objective, e: e.audit.objective }] : [];
  });
  return {
    strategy,
    cells: own.length,
    refusals: own.length - bundles.length,
    feasible: feasible.length,
    falseRefusals: feasible.filter((r) => !r.success).length,
    bundles: bundles.length,
    illegal: bundles.filter((r) => r.audit?.legal === false).length,
    incomplete: bundles.filter((r) => (r.audit?.missing_required.length ?? 0) > 0).length,
    gap: {
      preferred: mean(both.map((b) => b.e.preferred - b.r.preferred)),
      discretionary: mean(both.map((b) => b.e.discretionary - b.r.discretionary)),
      tokens: mean(both.map((b) => b.r.rendered_cost - b.e.rendered_cost)),
    },
    compared: both.length,
  };
}

/** A certifying strategy's own account (compiler-v2's `extras.proof` and `extras.gap`). */
export interface Certified {
  readonly refusals: number;
  /** Refusals proven: no legal bundle exists. */
  readonly proven: number;
  readonly unproven: number;
  readonly bundles: number;
  /** Bundles proven optimal. */
  readonly optimal: number;
  /** The gap each bundle reports to its bound, in earned PREFERRED relevance. */
  readonly gapMedian: number | null;
  readonly gapWorst: number | null;
}

/** What `own`, one strategy's rows, certify of themselves; null for a strategy that certifies nothing. */
export function certifiedOf(own: readonly Row[]): Certified | null {
  if (!own.some((r) => typeof r.extras.proof === 'string')) return null;
  const refusals = own.filter((r) => !r.success);
  const bundles = own.filter((r) => r.success);
  const gaps = bundles.map((r) => r.extras.gap).filter((g): g is number => typeof g === 'number');
  return {
    refusals: refusals.length,
    proven: refusals.filter((r) => r.extras.proof === 'infeasible').length,
    unproven: refusals.filter((r) => r.extras.proof !== 'infeasible').length,
    bundles: bundles.length,
    optimal: bundles.filter((r) => r.extras.proof === 'optimal').length,
    gapMedian: gaps.length === 0 ? null : median(gaps),
    gapWorst: gaps.length === 0 ? null : Math.max(...gaps),
  };
}

/** A run of the survey: its rows, and what it is for a table (`40 candidates`, say). */
export interface SurveyRun {
  readonly label: string;
  readonly rows: readonly Row[];
}

/** One strategy on one run of the survey: its figures against exact as rates with 95% intervals. */
export interface SurveyLine {
  readonly strategy: string;
  readonly run: string;
  readonly cells: number;
  readonly refusals: Rate;
  /** Over the cells where exact found a legal bundle. */
  readonly falseRefusals: Rate;
  /** Over the strategy's bundles. */
  readonly illegal: Rate;
  readonly incomplete: Rate;
  readonly gap: AgainstExact['gap'];
  readonly compared: number;
  /** What a strategy that certifies its answers (`extras.proof`) says of them; null for the others. */
  readonly certified: Certified | null;
}

/** Every strategy of every run; `scoring` is told before each run, for progress (a run of 1,000 cases takes a while). */
export function surveyLines(
  runs: readonly SurveyRun[],
  scoring: (run: SurveyRun, k: number) => void = () => {},
): SurveyLine[] {
  const lines: SurveyLine[] = [];
  for (const [k, run] of runs.entries()) {
    scoring(run, k);
    const exactAt = exactRows(run.rows);
    for (const strategy of new Set(run.rows.map((r) => r.strategy))) {
      const a = againstExact(run.rows, strategy, exactAt);
      lines.push({
        strategy,
        run: run.label,
        cells: a.cells,
        refusals: wilson(a.refusals, a.cells),
        falseRefusals: wilson(a.falseRefusals, a.feasible),
        illegal: wilson(a.illegal, a.bundles),
        incomplete: wilson(a.incomplete, a.bundles),
        gap: a.gap,
        compared: a.compared,
        certified: certifiedOf(
          run.rows.filter((r) => r.strategy === strategy && r.reason !== STRATEGY_ERROR),
        ),
      });
    }
  }
  return lines;
}
