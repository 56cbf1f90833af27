/**
 * What a report of an ingested corpus leads with: the measures of the localization benchmarks
 * (SWE-bench's retrieval setting and its kin), per budget and strategy. The ledger's must content
 * is the files the commit changed, so:
 *
 * - file recall: the share of those files the bundle holds (any form), a refusal scoring 0, the
 *   mean over the cells where a bundle is expected;
 * - file precision: of the files the bundle holds, the share the commit changed (the task is not
 *   a file), the mean over bundles;
 * - all files held: bundles that hold every changed file, over the cells where one is expected;
 * - tokens: the mean rendered tokens of a bundle.
 */
import { mean, rowsOf } from '../metrics/index.js';
import type { BudgetName, Row } from '../types.js';
import { BUDGETS, INGESTED_TASK_ID, STRATEGY_ERROR } from '../vocabulary.js';
import type { Table } from './table.js';

export interface LocalizationFigures {
  readonly recall: number | null;
  readonly precision: number | null;
  /** Bundles holding every changed file. */
  readonly complete: number;
  /** Cells where a bundle is expected. */
  readonly expected: number;
  readonly tokens: number | null;
  readonly refusals: number;
}

/** Must files the row's bundle holds: recall times the must total, rounded (both are exact counts). */
const mustHeld = (r: Row): number => Math.round((r.must_recall ?? 0) * (r.must_total ?? 0));

export function localizationOf(rows: readonly Row[]): LocalizationFigures {
  const scored = rows.filter((r) => r.reason !== STRATEGY_ERROR);
  const feasible = scored.filter((r) => r.expected.success && (r.must_total ?? 0) > 0);
  const bundles = scored.filter((r) => r.success);
  const precision = bundles.flatMap((r) => {
    const files = r.admitted.filter((id) => id !== INGESTED_TASK_ID).length;
    return files === 0 ? [] : [mustHeld(r) / files];
  });
  return {
    recall: mean(feasible.map((r) => (r.success ? (r.must_recall ?? 0) : 0))),
    precision: mean(precision),
    complete: feasible.filter((r) => r.success && r.must_recall === 1).length,
    expected: feasible.length,
    tokens: mean(bundles.map((r) => r.rendered_tokens)),
    refusals: scored.filter((r) => !r.success).length,
  };
}

const HEADERS = ['strategy', 'file recall', 'file precision', 'all files held', 'tokens (mean)', 'refusals'];

/** One table per budget the rows hold, a line per strategy. */
export function localizationTables(
  rows: readonly Row[],
  names: readonly string[],
): { readonly budget: BudgetName; readonly table: Table }[] {
  return BUDGETS.filter((b) => rows.some((r) => r.budget === b)).map((budget) => ({
    budget,
    table: {
      headers: HEADERS,
      rows: names.map((n) => {
        const f = localizationOf(rowsOf(rows, n, budget));
        return [n, f.recall, f.precision, `${f.complete} of ${f.expected}`, f.tokens, f.refusals];
      }),
      kinds: [undefined, 'score', 'score', undefined, 'mean', 'count'],
    },
  }));
}

export const LOCALIZATION_PROSE =
  'The corpus was ingested from a git repository: each case is a commit, its message the task, the files it ' +
  'changed the must content. File recall: the share of the changed files a bundle holds (a refusal scores 0), the ' +
  'mean over the cells where a bundle is expected. File precision: of the files a bundle holds, the share that ' +
  'changed, the mean over bundles. All files held: bundles holding every changed file. Tokens: the mean rendered ' +
  'tokens of a bundle.';
