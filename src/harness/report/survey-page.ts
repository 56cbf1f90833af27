/**
 * The survey: strategies against `exact` on generated corpora of several sizes, every rate with
 * its 95% Wilson interval. From rows alone: a run of each size, `exact` among its strategies.
 */
import { median } from 'simple-statistics';
import { count, int, percent } from '../format.js';
import { COLUMN_TABLES, headersOf, kindsOf, mean, type Rate, wilson } from '../metrics/index.js';
import type { Row } from '../types.js';
import { STRATEGY_ERROR } from '../vocabulary.js';
import { renderTable, type Table } from './table.js';

export interface SurveyRun {
  /** What the run is, for the table: `40 candidates`, say. */
  readonly label: string;
  readonly rows: readonly Row[];
}

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
  /** exact minus the strategy (tokens: the strategy minus exact), where both returned a bundle. */
  readonly gap: {
    readonly preferred: number | null;
    readonly discretionary: number | null;
    readonly tokens: number | null;
  };
  readonly compared: number;
  /** What a strategy that certifies its answers (`extras.proof`) says of them; null for the others. */
  readonly certified: Certified | null;
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

function certifiedOf(rows: readonly Row[]): Certified | null {
  if (!rows.some((r) => typeof r.extras.proof === 'string')) return null;
  const refusals = rows.filter((r) => !r.success);
  const bundles = rows.filter((r) => r.success);
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

const cellKey = (r: Row) => `${r.case}/${r.budget}`;

/** `scoring` is told before each run, for progress: a run of 1,000 cases takes a while. */
export function surveyLines(
  runs: readonly SurveyRun[],
  scoring: (run: SurveyRun, k: number) => void = () => {},
): SurveyLine[] {
  const lines: SurveyLine[] = [];
  for (const [k, run] of runs.entries()) {
    scoring(run, k);
    const exactAt = new Map(run.rows.filter((r) => r.strategy === 'exact').map((r) => [cellKey(r), r]));
    const strategies = [...new Set(run.rows.map((r) => r.strategy))];
    for (const strategy of strategies) {
      const own = run.rows.filter((r) => r.strategy === strategy && r.reason !== STRATEGY_ERROR);
      const bundles = own.filter((r) => r.success);
      const feasible = own.filter((r) => exactAt.get(cellKey(r))?.success === true);
      const both = bundles.flatMap((r) => {
        const e = exactAt.get(cellKey(r));
        return e?.success && e.audit && r.audit ? [{ r: r.audit.objective, e: e.audit.objective }] : [];
      });
      lines.push({
        strategy,
        run: run.label,
        cells: own.length,
        refusals: wilson(own.length - bundles.length, own.length),
        falseRefusals: wilson(feasible.filter((r) => !r.success).length, feasible.length),
        illegal: wilson(bundles.filter((r) => r.audit?.legal === false).length, bundles.length),
        incomplete: wilson(
          bundles.filter((r) => (r.audit?.missing_required.length ?? 0) > 0).length,
          bundles.length,
        ),
        gap: {
          preferred: mean(both.map((b) => b.e.preferred - b.r.preferred)),
          discretionary: mean(both.map((b) => b.e.discretionary - b.r.discretionary)),
          tokens: mean(both.map((b) => b.r.rendered_cost - b.e.rendered_cost)),
        },
        compared: both.length,
        certified: certifiedOf(own),
      });
    }
  }
  return lines;
}

/** `3 / 300 (1.0%, 0.3% to 2.9%)`; `-` when there is nothing to count. */
export function formatRate(r: Rate): string {
  if (r.of === 0 || r.low === null || r.high === null) return '-';
  return `${int(r.count)} / ${int(r.of)} (${percent(r.count / r.of)}, ${percent(r.low)} to ${percent(r.high)})`;
}

/** A run of the survey: what exact made of its cells, and a row per other strategy. */
export interface SurveySection {
  readonly label: string;
  readonly cells: number;
  /** The cells where exact found a legal bundle. */
  readonly legal: number;
  /** exact's answers not proven optimal. */
  readonly unproven: number;
  readonly table: Table;
  /** The certifying strategies' own account of their answers, when the run has one. */
  readonly certified: Table | null;
}

export function surveySections(runs: readonly SurveyRun[], lines: readonly SurveyLine[]): SurveySection[] {
  return runs.map((run) => {
    const exact = lines.find((l) => l.run === run.label && l.strategy === 'exact');
    return {
      label: run.label,
      cells: exact?.cells ?? 0,
      legal: exact ? exact.cells - exact.refusals.count : 0,
      unproven: run.rows.filter((r) => r.strategy === 'exact' && r.extras.proven_optimal === false).length,
      table: {
        headers: headersOf('survey'),
        rows: lines
          .filter((l) => l.run === run.label && l.strategy !== 'exact')
          .map((l) => [
            l.strategy,
            formatRate(l.refusals),
            formatRate(l.falseRefusals),
            formatRate(l.illegal),
            formatRate(l.incomplete),
            l.gap.preferred,
            l.gap.discretionary,
            l.gap.tokens,
          ]),
        kinds: kindsOf('survey'),
        signed: COLUMN_TABLES.survey.map((name) => name.endsWith('_gap')),
      },
      certified: certifiedTable(lines.filter((l) => l.run === run.label)),
    };
  });
}

function certifiedTable(lines: readonly SurveyLine[]): Table | null {
  const rows = lines.flatMap((l) =>
    l.certified === null
      ? []
      : [
          [
            l.strategy,
            `${int(l.certified.proven)} of ${int(l.certified.refusals)}`,
            int(l.certified.unproven),
            `${int(l.certified.optimal)} of ${int(l.certified.bundles)}`,
            l.certified.gapMedian,
            l.certified.gapWorst,
          ],
        ],
  );
  if (rows.length === 0) return null;
  return {
    headers: headersOf('certified'),
    rows,
    kinds: kindsOf('certified'),
  };
}

/** What exact made of a run's cells, in a sentence; `code` marks the strategy's name. */
export const sectionNote = (s: SurveySection, code = (name: string) => name): string =>
  `${count(s.cells, 'cell')}; ${code('exact')} found a legal bundle in ${int(s.legal)} ` +
  `and certified the rest impossible; ${int(s.unproven)} of its answers not proven.`;

/** The survey as Markdown: one table per run, one row per strategy. */
export function surveyMarkdown(sections: readonly SurveySection[]): string {
  const parts = [
    '# Survey against `exact`',
    'Generated by `ctxbench survey` from the rows of each run; every number is computed. Each rate is a count of ' +
      'its base with the 95% Wilson interval. Refusals: of all cells. False refusals: of the cells where `exact` found ' +
      'a legal bundle. Illegal and incomplete (lacking MANDATORY or REQUIRED content or a named id): of the ' +
      "strategy's bundles. Gaps, where both returned a bundle: exact minus the strategy in earned PREFERRED and " +
      'DISCRETIONARY relevance, the strategy minus exact in rendered tokens.',
  ];
  for (const s of sections) {
    parts.push(`## ${s.label}\n\n${sectionNote(s, (name) => `\`${name}\``)}`, renderTable(s.table, 'md'));
    if (s.certified !== null)
      parts.push(
        'What the strategies that certify their answers say of them (`extras.proof`; `extras.gap`: how much more ' +
          'earned PREFERRED relevance than the bundle any legal bundle could have, 0 when proven optimal):',
        renderTable(s.certified, 'md'),
      );
  }
  return `${parts.join('\n\n')}\n`;
}
