/**
 * The verdict of an ingested corpus as figures, per budget: which strategy holds every needed file
 * in full text in the most cells where a bundle is expected (All in full text, found-files.ts),
 * and whether the run can tell it from the rest. The report modules only word these figures.
 *
 * - Each strategy's rate comes with its 95% Wilson score interval (stats.ts).
 * - Two strategies are compared cell by cell (the same case at the same budget) by McNemar's exact
 *   test (paired.ts): of the cells where exactly one of them holds every needed file whole, under
 *   no difference each goes either way with probability 1/2; the two-sided p is read at ALPHA.
 * - The top is every contender at the highest rate. One strategy leads only when it is alone at
 *   the top and the test separates it from the next (the best below the top): p < ALPHA, or no
 *   other contender ran. Else the
 *   top is a tie, and so is every contender that some strategy at the top does not beat at ALPHA;
 *   nothing breaks a tie, least of all tokens, which say what a bundle cost, not what it found.
 * - Fewer cells than the discordant pairs any significant difference needs (MIN_DISCORDANT, six
 *   at 0.05) cannot separate any two strategies: the run is too small, and says so.
 *
 * The oracle reads the ledger: it is shown apart, as the ceiling, never a contender.
 */
import type { BudgetName, Row } from '../types.js';
import { BUDGETS } from '../vocabulary.js';
import { localizationOf, wholeByCell } from './found-files.js';
import { ALPHA, discordant, mcnemar } from './paired.js';
import { type Rate, rowsOf, wilson } from './stats.js';

/** The strategies that read the ledger (the contract allows the oracle alone): a ceiling. */
export const CEILINGS: readonly string[] = ['oracle'];

/**
 * The fewest discordant cells with which McNemar's exact test can reach p < ALPHA (all of them one
 * way): 6 at 0.05, since 2 / 2^5 = 0.0625 and 2 / 2^6 = 0.03125. Read off the test itself.
 */
export const MIN_DISCORDANT: number = (() => {
  let n = 1;
  while (mcnemar(0, n) >= ALPHA) n++;
  return n;
})();

/** Where one strategy stands at one budget. */
export interface Standing {
  readonly name: string;
  /** All in full text: the share of its expected cells whose bundle holds every needed file whole. */
  readonly allFullText: number | null;
  /** That share as a count of its cells, with the 95% Wilson interval. */
  readonly whole: Rate;
  readonly heldFullText: number;
  readonly allAnyForm: number | null;
  readonly heldAnyForm: number;
  readonly meanTokens: number | null;
  /**
   * McNemar's exact p against the top (the largest over the strategies at the top rate: the one
   * it is least separated from); null for a strategy at the top, the ceiling, or no paired cell.
   */
  readonly pTop: number | null;
}

/** McNemar's exact test between two strategies over the cells both hold. */
export interface Separation {
  readonly a: string;
  readonly b: string;
  readonly cells: number;
  /** Cells where A alone, and B alone, holds every needed file whole. */
  readonly aOnly: number;
  readonly bOnly: number;
  readonly p: number;
}

/**
 * What the run says at a budget: one strategy `leads`; several are `tied`; the cells are
 * `too-few` for any test to separate two strategies; `none` holds every needed file whole anywhere.
 */
export type Call = 'leads' | 'tied' | 'too-few' | 'none';

export interface BudgetVerdict {
  readonly budget: BudgetName;
  readonly budgetTokens: number | null;
  /** Cells where a bundle is expected, and the needed files over them. */
  readonly cells: number;
  readonly needed: number;
  readonly call: Call;
  /**
   * `leads`: the leader. `tied`: the strategies at the top rate, then every other contender that
   * some strategy at the top does not beat at ALPHA. `too-few`: the strategies at the top rate.
   * `none`: empty. By rate, then by name.
   */
  readonly leaders: readonly Standing[];
  /** The best contender below the top rate (the one least separated from the top among equals). */
  readonly next: Standing | null;
  /** The test between the next and the strategy at the top it is least separated from. */
  readonly test: Separation | null;
  /** The best in any form, when it is not among the leaders: what a path list tops. */
  readonly anyForm: Standing | null;
  readonly ceilings: readonly Standing[];
}

/** McNemar's exact test of A against B over the cells both define. */
export function separation(
  a: string,
  b: string,
  outcomes: ReadonlyMap<string, ReadonlyMap<string, boolean>>,
): Separation | null {
  const x = outcomes.get(a);
  const y = outcomes.get(b);
  if (x === undefined || y === undefined) return null;
  const pairs = [...x].flatMap(([cell, ax]) => {
    const by = y.get(cell);
    return by === undefined ? [] : [[ax, by] as const];
  });
  const { aOnly, bOnly } = discordant(pairs);
  return pairs.length === 0 ? null : { a, b, cells: pairs.length, aOnly, bOnly, p: mcnemar(aOnly, bOnly) };
}

type Figures = Omit<Standing, 'pTop'>;

/** One strategy's figures over its rows of one budget, and its outcome per cell for the tests. */
function figuresOf(
  name: string,
  rows: readonly Row[],
): Figures & { readonly outcome: ReadonlyMap<string, boolean> | null } {
  const f = localizationOf(rows);
  const outcome = wholeByCell(rows);
  const yes = outcome === null ? 0 : [...outcome.values()].filter((v) => v).length;
  return {
    name,
    allFullText: f.fullText.all,
    whole: wilson(yes, outcome?.size ?? 0),
    heldFullText: f.held_full_text,
    allAnyForm: f.anyForm.all,
    heldAnyForm: f.held_any_form,
    meanTokens: f.mean_tokens,
    outcome,
  };
}

const rate = (s: { readonly allFullText: number | null }) => s.allFullText ?? -1;
const byName = (a: { readonly name: string }, b: { readonly name: string }) =>
  a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
const anyFormOrder = (a: Standing, b: Standing): number =>
  (b.allAnyForm ?? -1) - (a.allAnyForm ?? -1) || b.heldAnyForm - a.heldAnyForm || byName(a, b);

/** The cells of a budget where a bundle is expected, and the needed files they hold, by case. */
function neededAt(rows: readonly Row[], budget: BudgetName): { cells: number; needed: number } {
  const byCase = new Map<string, number>();
  for (const r of rows)
    if (r.budget === budget && r.expected.success && (r.must_total ?? 0) > 0)
      byCase.set(r.case, r.must_total ?? 0);
  return { cells: byCase.size, needed: [...byCase.values()].reduce((s, n) => s + n, 0) };
}

/** The verdict at one budget over the strategies `names`. */
function budgetVerdict(rows: readonly Row[], names: readonly string[], budget: BudgetName): BudgetVerdict {
  const figures = names.map((n) => figuresOf(n, rowsOf(rows, n, budget)));
  const outcomes = new Map(
    figures.flatMap((f) => (f.outcome === null ? [] : [[f.name, f.outcome] as const])),
  );
  const contenders = figures.filter((f) => !CEILINGS.includes(f.name));
  const best = Math.max(-1, ...contenders.map(rate));
  const top = contenders.filter((f) => rate(f) === best);
  // Against the top: the largest p over its strategies, so that a tie is called whenever any of
  // them cannot be told from this one.
  const pTop = (name: string): number | null => {
    const ps = top.flatMap((t) => separation(t.name, name, outcomes)?.p ?? []);
    return ps.length === 0 ? null : Math.max(...ps);
  };
  const standing = ({ outcome: _, ...f }: (typeof figures)[number]): Standing => ({
    ...f,
    pTop: CEILINGS.includes(f.name) || rate(f) === best ? null : pTop(f.name),
  });
  const ranked = contenders
    .map(standing)
    .sort((a, b) => rate(b) - rate(a) || (b.pTop ?? 2) - (a.pTop ?? 2) || byName(a, b));
  const atTop = ranked.filter((s) => rate(s) === best);
  const next = ranked.find((s) => rate(s) < best) ?? null;
  const test =
    next === null
      ? null
      : (atTop
          .flatMap((t) => separation(t.name, next.name, outcomes) ?? [])
          .sort((a, b) => b.p - a.p || (a.a < b.a ? -1 : a.a > b.a ? 1 : 0))[0] ?? null);
  const { cells, needed } = neededAt(rows, budget);
  const call: Call =
    best <= 0
      ? 'none'
      : cells < MIN_DISCORDANT
        ? 'too-few'
        : atTop.length === 1 && (next === null || (test !== null && test.p < ALPHA))
          ? 'leads'
          : 'tied';
  const tiedBelow = ranked.filter((s) => rate(s) < best && s.pTop !== null && s.pTop >= ALPHA);
  const leaders = call === 'none' ? [] : call === 'tied' ? [...atTop, ...tiedBelow] : atTop;
  const anyForm = [...ranked].sort(anyFormOrder)[0] ?? null;
  return {
    budget,
    budgetTokens: rows.find((r) => r.budget === budget)?.budget_tokens ?? null,
    cells,
    needed,
    call,
    leaders: [...leaders].sort((a, b) => rate(b) - rate(a) || byName(a, b)),
    next: call === 'none' ? null : next,
    test: call === 'none' ? null : test,
    anyForm: anyForm === null || leaders.includes(anyForm) || anyForm.heldAnyForm === 0 ? null : anyForm,
    ceilings: figures.filter((f) => CEILINGS.includes(f.name)).map(standing),
  };
}

/** The verdict at every budget the rows hold, over the strategies `names`. */
export function verdictOf(rows: readonly Row[], names: readonly string[]): BudgetVerdict[] {
  return BUDGETS.filter((b) => rows.some((r) => r.budget === b)).map((b) => budgetVerdict(rows, names, b));
}
