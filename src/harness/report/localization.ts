/**
 * What a report of an ingested corpus leads with: the localization measures (score/file-recall.ts)
 * per budget and strategy, under the catalogue's column labels.
 */
import { headersOf, kindsOf, localizationOf, rowsOf } from '../metrics/index.js';
import type { BudgetName, Row } from '../types.js';
import { BUDGETS } from '../vocabulary.js';
import type { Table } from './table.js';

/** One table per budget the rows hold, a line per strategy. */
export function localizationTables(
  rows: readonly Row[],
  names: readonly string[],
): { readonly budget: BudgetName; readonly table: Table }[] {
  return BUDGETS.filter((b) => rows.some((r) => r.budget === b)).map((budget) => ({
    budget,
    table: {
      headers: headersOf('localization'),
      rows: names.map((n) => {
        const f = localizationOf(rowsOf(rows, n, budget));
        return [
          n,
          f.file_recall,
          f.file_precision,
          `${f.complete} of ${f.expected}`,
          f.mean_tokens,
          f.refusals,
        ];
      }),
      kinds: kindsOf('localization'),
    },
  }));
}

export const LOCALIZATION_PROSE =
  'The corpus was ingested from a git repository: each case is a commit, its message the task, the files it ' +
  'changed the must content. File recall: the share of the changed files a bundle holds (a refusal scores 0), the ' +
  'mean over the cells where a bundle is expected. File precision: of the files a bundle holds, the share that ' +
  'changed, the mean over bundles. All files held: bundles holding every changed file. Tokens: the mean rendered ' +
  'tokens of a bundle.';
