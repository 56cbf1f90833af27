/**
 * What a report of an ingested corpus leads with: the localization measures (metrics/found-files.ts)
 * per budget and strategy, under the catalogue's column labels.
 */
import { fixed, signed } from '../format.js';
import {
  COLUMN_TABLES,
  columnOf,
  headersOf,
  kindsOf,
  localizationOf,
  pairedTest,
  rowsOf,
  strategiesOf,
  wholeByCell,
} from '../metrics/index.js';
import type { BudgetName, Row } from '../types.js';
import { BUDGETS, MAP_ONLY } from '../vocabulary.js';
import { fail, repositoryOf } from './findings-parts.js';
import { renderTable, type Table } from './table.js';

/** A full-text figure of a peer whose answer holds no file's body by design (MAP_ONLY). */
const NOT_BY_DESIGN = 'n/a by design';

/**
 * A strategy's localization figures under the catalogue names of the localization table's
 * columns: the one place a column name meets its figure, for the table and for `found`.
 */
function figuresByColumn(rows: readonly Row[]): Readonly<Record<string, number | string | null>> {
  const f = localizationOf(rows);
  const byDesign = rows.length > 0 && MAP_ONLY.includes((rows[0] as Row).strategy);
  const full = (x: number | null) => (byDesign ? NOT_BY_DESIGN : x);
  return {
    avg_full_text: full(f.fullText.avg),
    all_full_text: full(f.fullText.all),
    any_full_text: full(f.fullText.any),
    avg_any_form: f.anyForm.avg,
    all_any_form: f.anyForm.all,
    any_any_form: f.anyForm.any,
    must_token_share: f.must_token_share,
    first_rank: f.first_rank === Number.POSITIVE_INFINITY ? 'none' : f.first_rank,
    acc_at_1: f.acc_at_1,
    acc_at_3: f.acc_at_3,
    acc_at_5: f.acc_at_5,
    file_precision: f.file_precision,
    mean_tokens: f.mean_tokens,
    refusals: f.refusals,
    expected: f.expected,
    expected_held: f.expected_held,
    held_full_text: full(f.held_full_text),
    held_any_form: f.held_any_form,
  };
}

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
        const byColumn = figuresByColumn(rowsOf(rows, n, budget));
        return COLUMN_TABLES.localization.map((c) => (c === 'strategy' ? n : (byColumn[c] ?? null)));
      }),
      kinds: kindsOf('localization'),
    },
  }));
}

/**
 * Per budget the rows hold, the localization figures a line per repository and strategy (in
 * `names` order), for a corpus whose cases come from two repositories or more; none otherwise.
 */
export function repositoryTables(
  rows: readonly Row[],
  names: readonly string[],
): { readonly budget: BudgetName; readonly table: Table }[] {
  const repos = [...new Set(rows.map((r) => repositoryOf(r.case)))];
  if (repos.length < 2 || repos.includes(null)) return [];
  const sorted = (repos as string[]).sort();
  return BUDGETS.filter((b) => rows.some((r) => r.budget === b)).map((budget) => ({
    budget,
    table: {
      headers: headersOf('localization_by_repository'),
      rows: sorted.flatMap((repo) => {
        const mine = rows.filter((r) => repositoryOf(r.case) === repo);
        const cases = new Set(mine.map((r) => r.case)).size;
        return names.map((n) => {
          const byColumn = figuresByColumn(rowsOf(mine, n, budget));
          return COLUMN_TABLES.localization_by_repository.map((c) =>
            c === 'repository' ? repo : c === 'cases' ? cases : c === 'strategy' ? n : (byColumn[c] ?? null),
          );
        });
      }),
      kinds: kindsOf('localization_by_repository'),
      // The repository and the strategy are names, left as the first column is.
      align: kindsOf('localization_by_repository').map((k) => (k === undefined ? 'left' : 'right')),
    },
  }));
}

/**
 * A findings page's table at one budget, as Markdown: `{{localization RUN BUDGET}}`, every
 * strategy; with `byRepository`, `{{localization-by-repository RUN BUDGET S1,S2}}`, those
 * strategies a line per repository.
 */
export function localizationTableAt(
  rows: readonly Row[],
  budget: string,
  byRepository?: readonly string[],
): string {
  const known = strategiesOf(rows);
  for (const n of byRepository ?? []) if (!known.includes(n)) fail(`no strategy ${n} in the run`);
  const tables =
    byRepository === undefined ? localizationTables(rows, known) : repositoryTables(rows, byRepository);
  const at = tables.find((t) => t.budget === budget);
  if (at === undefined)
    return fail(`no budget ${budget}${byRepository ? ' of cases from several repositories' : ''} in the run`);
  return renderTable(at.table, 'md').trimEnd();
}

/**
 * `{{mcnemar RUN BUDGET A B}}`: McNemar's exact p of A against B on whether each cell's bundle
 * holds every needed file whole, over the cells both hold a row for, as the page writes it:
 * `p = 0.12`, `p = 0.023` under 0.1, `p < 0.001`.
 */
export function mcnemarFigure(rows: readonly Row[], budget: string, a: string, b: string): string {
  const whole = (s: string) => {
    const mine = rows.filter((r) => r.strategy === s && r.budget === budget);
    if (mine.length === 0) fail(`no rows of ${s} at ${budget}`);
    return wholeByCell(mine) ?? fail(`the rows of ${s} do not measure the full text`);
  };
  const [x, y] = [whole(a), whole(b)];
  const pairs = [...x].flatMap(([cell, v]) => (y.has(cell) ? [[v, y.get(cell) as boolean] as const] : []));
  const p = pairedTest(pairs, `${a}/${b}/${budget}`).p ?? fail(`no cell both ${a} and ${b} hold`);
  return p < 0.001 ? 'p < 0.001' : `p = ${p.toFixed(p < 0.1 ? 3 : 2)}`;
}

export const REPOSITORY_PROSE =
  'The same figures for each repository the cases come from: Avg, All and Any in full text and in any form, ' +
  "and file accuracy at 1, 3 and 5 of the strategy's own ranking where it publishes one.";

export const LOCALIZATION_PROSE =
  'The corpus names files: each case is a task (a commit message, or a SWE-bench issue) and the files its fix ' +
  "changed are the must content. Avg, All and Any are the SWE-bench paper's (Table 3): the mean share of those " +
  'files a bundle holds, the share of cells holding every one, and at least one, over the cells where a bundle is ' +
  "expected (a refusal holds none). Full text counts a file only in its whole text, as the paper's context holds " +
  'it; any form counts an outline or a bare path too, so a list of paths finds every file there and none in full ' +
  "text. Must token share: the share of a bundle's tokens that are those files, the mean over bundles. First must " +
  "rank: the median rank of the first changed file in the strategy's own ranking, for a strategy that publishes " +
  'one (none: the median ranking holds none). Acc@1, @3 and @5: the share of cells whose ranking holds every changed ' +
  "file within its first 1, 3 or 5 (SweRank's file accuracy), for the same strategies. File precision: of the " +
  'files a bundle holds, the share that changed. ' +
  'Tokens: the mean rendered tokens of a bundle.';

/**
 * One figure of the localization table over `rows`, by its catalogue name, for a findings page:
 * a share (a column whose values are fractions) as a percentage to two places, as the SWE-bench
 * paper writes them, and with `minus` its difference from that number, or with `side` the word
 * for where it lies against it; a count as a whole number.
 */
export function foundFigure(rows: readonly Row[], name: string, minus?: string, side = false): string {
  const how = side ? 'side' : 'minus';
  const byColumn = figuresByColumn(rows);
  if (!(name in byColumn)) return fail(`no localization figure "${name}"`);
  const v = byColumn[name] ?? null;
  if (typeof v === 'string') return minus === undefined ? v : fail(`${how} takes a share, not "${name}"`);
  const range = columnOf(name).range;
  if (!(range !== undefined && range.low === 0 && range.high === 1 && !range.integer)) {
    if (minus !== undefined) fail(`${how} takes a share, not "${name}"`);
    // A sum of chances is not a count: one place shows how near it comes to the count beside it.
    return fixed(v, name === 'expected_held' ? 1 : 0);
  }
  const pct = v === null ? null : 100 * v;
  if (minus === undefined) return fixed(pct, 2);
  const than = Number(minus);
  if (!Number.isFinite(than)) fail(`${how} needs a number, not "${minus}"`);
  if (how === 'minus') return signed(pct === null ? null : pct - than, 2);
  // The word a sentence needs, from the figures as printed (two decimals): never a fixed phrase.
  if (pct === null) return 'not comparable with';
  const d = Number((pct - than).toFixed(2));
  return d > 0 ? 'above' : d < 0 ? 'below' : 'level with';
}
