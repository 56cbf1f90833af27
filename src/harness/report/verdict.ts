/**
 * The answer a report of an ingested corpus leads with: which strategy finds the files each task
 * needed, at what cost. Per budget, the contenders are ranked by the share of the cells (where a
 * bundle is expected) whose bundle holds every needed file in full text, then by the needed files
 * held in full text, then by fewer tokens a bundle, then by name; those equal on the first three
 * are tied, and all of them are named. A file counts only whole: a strategy that admits paths or
 * outlines alone holds none, so it cannot lead, and a strategy that holds no needed file whole
 * leads nothing. The figures in any form (a path counts) are shown apart, and so is the oracle,
 * which reads the ledger: a ceiling, not a contender.
 */
import { count, int, percent } from '../format.js';
import {
  headersOf,
  kindsOf,
  localizationOf,
  rowsOf,
  statsByStrategy,
  violationTotal,
} from '../metrics/index.js';
import type { BudgetName, Row } from '../types.js';
import { BUDGETS } from '../vocabulary.js';
import type { Table } from './table.js';

/** The strategies that read the ledger (the contract allows the oracle alone): a ceiling. */
export const CEILINGS: readonly string[] = ['oracle'];

/** Where one strategy stands at one budget. */
export interface Standing {
  readonly name: string;
  readonly allFullText: number | null;
  readonly heldFullText: number;
  readonly allAnyForm: number | null;
  readonly heldAnyForm: number;
  readonly meanTokens: number | null;
}

export interface BudgetVerdict {
  readonly budget: BudgetName;
  readonly budgetTokens: number | null;
  /** Cells where a bundle is expected, and the needed files over them. */
  readonly cells: number;
  readonly needed: number;
  /** The best in full text and every contender tied with it; empty when none holds a file whole. */
  readonly leaders: readonly Standing[];
  /** The best contender after the leaders, in full text. */
  readonly next: Standing | null;
  /** The best in any form, when it is not a leader: what a path list tops. */
  readonly anyForm: Standing | null;
  readonly ceilings: readonly Standing[];
}

function standingOf(rows: readonly Row[], name: string, budget: BudgetName): Standing {
  const f = localizationOf(rowsOf(rows, name, budget));
  return {
    name,
    allFullText: f.fullText.all,
    heldFullText: f.held_full_text,
    allAnyForm: f.anyForm.all,
    heldAnyForm: f.held_any_form,
    meanTokens: f.mean_tokens,
  };
}

const desc = (a: number | null, b: number | null) => (b ?? -1) - (a ?? -1);
const asc = (a: number | null, b: number | null) =>
  (a ?? Number.POSITIVE_INFINITY) - (b ?? Number.POSITIVE_INFINITY);

/** The rule: all in full text, then files held whole, then fewer tokens; 0 when tied on all three. */
const fullTextOrder = (a: Standing, b: Standing): number =>
  desc(a.allFullText, b.allFullText) || b.heldFullText - a.heldFullText || asc(a.meanTokens, b.meanTokens);
const anyFormOrder = (a: Standing, b: Standing): number =>
  desc(a.allAnyForm, b.allAnyForm) || b.heldAnyForm - a.heldAnyForm || asc(a.meanTokens, b.meanTokens);
const byName = (a: Standing, b: Standing) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

/** The cells of a budget where a bundle is expected, and the needed files they hold, by case. */
function neededAt(rows: readonly Row[], budget: BudgetName): { cells: number; needed: number } {
  const byCase = new Map<string, number>();
  for (const r of rows)
    if (r.budget === budget && r.expected.success && (r.must_total ?? 0) > 0)
      byCase.set(r.case, r.must_total ?? 0);
  return { cells: byCase.size, needed: [...byCase.values()].reduce((s, n) => s + n, 0) };
}

/** The verdict at every budget the rows hold, over the strategies `names`. */
export function verdictOf(rows: readonly Row[], names: readonly string[]): BudgetVerdict[] {
  return BUDGETS.filter((b) => rows.some((r) => r.budget === b)).map((budget) => {
    const all = names.map((n) => standingOf(rows, n, budget));
    const contenders = all
      .filter((s) => !CEILINGS.includes(s.name))
      .sort((a, b) => fullTextOrder(a, b) || byName(a, b));
    const first = contenders[0];
    const leaders =
      first === undefined || first.heldFullText === 0
        ? []
        : contenders.filter((s) => fullTextOrder(s, first) === 0);
    const next = contenders[leaders.length] ?? null;
    const anyForm = [...contenders].sort((a, b) => anyFormOrder(a, b) || byName(a, b))[0] ?? null;
    return {
      budget,
      budgetTokens: rows.find((r) => r.budget === budget)?.budget_tokens ?? null,
      ...neededAt(rows, budget),
      leaders,
      next: leaders.length === 0 ? null : next,
      anyForm: anyForm === null || leaders.includes(anyForm) || anyForm.heldAnyForm === 0 ? null : anyForm,
      ceilings: all.filter((s) => CEILINGS.includes(s.name)),
    };
  });
}

export const VERDICT_PROSE =
  'Which strategy finds the files each task needed: per budget, the strategy whose bundles hold every needed ' +
  'file in full text in the most cells where a bundle is expected (all, full text); ties go to more needed ' +
  'files held in full text, then to fewer tokens a bundle, and strategies equal on all three are named ' +
  'together, by name. A file counts only whole, so a strategy that admits paths or outlines alone cannot ' +
  'lead; the figures in any form, where a path counts as found, stand apart, with the strategy that leads ' +
  'them. The oracle reads the ledger: it is the ceiling, not a contender.';

const tokens = (s: Standing) =>
  s.meanTokens === null ? '-' : `${int(Math.round(s.meanTokens))} tokens a bundle`;
const held = (n: number, of: number, form: string) => `${int(n)} of ${int(of)} needed files ${form}`;

/** The verdict at one budget in sentences: the answer, the runner-up, any form and the ceiling apart. */
export function verdictSentences(v: BudgetVerdict, code: (s: string) => string = (s) => s): string[] {
  const at = `${v.budget}${v.budgetTokens === null ? '' : ` (${int(v.budgetTokens)} tokens)`}`;
  const named = v.leaders.map((s) => code(s.name));
  const names = named.length < 2 ? named.join('') : `${named.slice(0, -1).join(', ')} and ${named.at(-1)}`;
  const lead = v.leaders[0];
  const out =
    lead === undefined
      ? [`At ${at}, no strategy holds a needed file in full text in ${count(v.cells, 'cell')}.`]
      : [
          `At ${at}, ${names} ${v.leaders.length > 1 ? `tie: each holds` : 'holds'} every needed file in full ` +
            `text in ${percent(lead.allFullText)} of ${count(v.cells, 'cell')} (${held(lead.heldFullText, v.needed, 'in full text')}), ` +
            `at ${tokens(lead)}.`,
        ];
  if (v.next !== null)
    out.push(
      `Next: ${code(v.next.name)}, ${percent(v.next.allFullText)} (${int(v.next.heldFullText)} files), at ${tokens(v.next)}.`,
    );
  if (v.anyForm !== null)
    out.push(
      `In any form (a path counts): ${code(v.anyForm.name)}, ${percent(v.anyForm.allAnyForm)} all, but ` +
        `${percent(v.anyForm.allFullText)} in full text.`,
    );
  for (const c of v.ceilings)
    out.push(
      `Ceiling, ${code(c.name)} (reads the ledger): ${percent(c.allFullText)} in full text, at ${tokens(c)}.`,
    );
  return out;
}

/** The standings of one budget as a table: the leaders, the next, the best in any form, the ceiling. */
export function verdictTable(v: BudgetVerdict): Table {
  const line = (standing: string, s: Standing) => [
    s.name,
    standing,
    s.allFullText,
    s.heldFullText,
    s.allAnyForm,
    s.heldAnyForm,
    s.meanTokens,
  ];
  const lead = v.leaders.length > 1 ? 'best in full text (tied)' : 'best in full text';
  return {
    headers: headersOf('verdict'),
    rows: [
      ...v.leaders.map((s) => line(lead, s)),
      ...(v.next === null ? [] : [line('next', v.next)]),
      ...(v.anyForm === null ? [] : [line('best in any form', v.anyForm)]),
      ...v.ceilings.map((s) => line('ceiling (reads the ledger)', s)),
    ],
    kinds: kindsOf('verdict'),
    align: ['left', 'left', 'right', 'right', 'right', 'right', 'right'],
  };
}

/**
 * The headline `study` and `report` print for an ingested corpus: each strategy's file recall
 * over every budget, in full text and in any form, its tokens a bundle, refusals and violations.
 */
export function ingestedHeadline(rows: readonly Row[], names: readonly string[]): Table {
  const stats = statsByStrategy(rows, names);
  return {
    headers: headersOf('ingested_headline'),
    rows: names.map((n) => {
      const f = localizationOf(rowsOf(rows, n));
      const s = stats.get(n);
      return [
        n,
        f.fullText.all,
        f.fullText.avg,
        f.anyForm.all,
        f.mean_tokens,
        f.refusals,
        s ? violationTotal(s) : null,
      ];
    }),
    kinds: kindsOf('ingested_headline'),
  };
}

/** The verdict for a terminal: the rule in a line, then each budget's sentences, one a line. */
export function verdictText(rows: readonly Row[], names: readonly string[]): string {
  const lines = verdictOf(rows, names).flatMap((v) =>
    verdictSentences(v).map((s, k) => (k === 0 ? s : `  ${s}`)),
  );
  return `${[
    'Verdict: the strategy whose bundles hold every needed file in full text most often, per budget',
    '(ties: more needed files held whole, then fewer tokens, then by name; a path alone finds nothing).',
    ...lines,
  ].join('\n')}\n`;
}
