/**
 * What a report of an ingested corpus leads with: the localization measures (metrics/found-files.ts)
 * per budget and strategy, under the catalogue's column labels.
 */
import { fixed, int, signed } from '../format.js';
import { headersOf, kindsOf, localizationOf, rowsOf } from '../metrics/index.js';
import type { BudgetName, Row } from '../types.js';
import { BUDGETS } from '../vocabulary.js';
import { fail } from './findings-parts.js';
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
          f.fullText.avg,
          f.fullText.all,
          f.fullText.any,
          f.anyForm.avg,
          f.anyForm.all,
          f.anyForm.any,
          f.must_token_share,
          f.first_rank === Number.POSITIVE_INFINITY ? 'none' : f.first_rank,
          f.file_precision,
          f.mean_tokens,
          f.refusals,
        ];
      }),
      kinds: kindsOf('localization'),
    },
  }));
}

export const LOCALIZATION_PROSE =
  'The corpus names files: each case is a task (a commit message, or a SWE-bench issue) and the files its fix ' +
  "changed are the must content. Avg, All and Any are the SWE-bench paper's (Table 3): the mean share of those " +
  'files a bundle holds, the share of cells holding every one, and at least one, over the cells where a bundle is ' +
  "expected (a refusal holds none). Full text counts a file only in its whole text, as the paper's context holds " +
  'it; any form counts an outline or a bare path too, so a list of paths finds every file there and none in full ' +
  "text. Must token share: the share of a bundle's tokens that are those files, the mean over bundles. First must " +
  "rank: the median rank of the first changed file in the strategy's own ranking, for a strategy that publishes " +
  'one (none: the median ranking holds none). File precision: of the files a bundle holds, the share that changed. ' +
  'Tokens: the mean rendered tokens of a bundle.';

/**
 * One figure of the localization table over `rows`, by its catalogue name, for a findings page:
 * the shares as percentages to two places, as the SWE-bench paper writes them, and with `minus`
 * their difference from that number.
 */
export function foundFigure(rows: readonly Row[], name: string, minus?: string): string {
  const f = localizationOf(rows);
  const shares: Readonly<Record<string, number | null>> = {
    avg_full_text: f.fullText.avg,
    all_full_text: f.fullText.all,
    any_full_text: f.fullText.any,
    avg_any_form: f.anyForm.avg,
    all_any_form: f.anyForm.all,
    any_any_form: f.anyForm.any,
    must_token_share: f.must_token_share,
    file_precision: f.file_precision,
  };
  if (name in shares) {
    const pct = shares[name] === null ? null : 100 * (shares[name] as number);
    if (minus === undefined) return fixed(pct, 2);
    const than = Number(minus);
    if (!Number.isFinite(than)) fail(`minus needs a number, not "${minus}"`);
    return signed(pct === null ? null : pct - than, 2);
  }
  if (minus !== undefined) fail(`minus takes a share, not "${name}"`);
  if (name === 'first_rank')
    return f.first_rank === Number.POSITIVE_INFINITY ? 'none' : fixed(f.first_rank, 0);
  if (name === 'mean_tokens') return fixed(f.mean_tokens, 0);
  if (name === 'refusals' || name === 'expected') return int(f[name]);
  return fail(`no localization figure "${name}"`);
}
