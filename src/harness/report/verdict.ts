/**
 * The verdict an ingested corpus's report leads with, in words and a table per budget: the
 * figures are metrics/standings.ts's (the rates, their intervals, the tests and the call); this
 * module only writes them, for report.md, report.html and the terminal.
 */
import { count, DIGITS, fixed, int, percent } from '../format.js';
import {
  ALPHA,
  type BudgetVerdict,
  headersOf,
  kindsOf,
  localizationOf,
  MIN_DISCORDANT,
  rowsOf,
  type Separation,
  type Standing,
  statsByStrategy,
  verdictOf,
  violationTotal,
} from '../metrics/index.js';
import type { Row } from '../types.js';
import type { Table } from './table.js';

export const VERDICT_PROSE =
  'Which strategy finds the files each task needed: per budget, the share of the cells where a bundle is ' +
  'expected whose bundle holds every needed file in full text (all, full text), with its 95% Wilson score ' +
  "interval. One strategy leads only when it alone has the highest share and McNemar's exact test (two-sided, " +
  `on the cells both strategies hold) puts it above the next below it at p < ${ALPHA}; otherwise the top is a ` +
  'tie, and every strategy that a strategy at the top does not beat at that level is named in it, by share ' +
  'then by name: nothing breaks a tie, tokens least of all. A run of fewer cells than the test needs to ' +
  `separate any two strategies (${MIN_DISCORDANT} cells where they differ, all one way) says that it cannot. ` +
  'A file counts only whole, so a strategy that admits paths or outlines alone cannot lead; the figures in any ' +
  'form, where a path counts as found, stand apart, with the strategy that leads them. The oracle reads the ' +
  'ledger: it is the ceiling, not a contender.';

const tokens = (s: Standing) =>
  s.meanTokens === null ? '-' : `${int(Math.round(s.meanTokens))} tokens a bundle`;
const held = (n: number, of: number, form: string) => `${int(n)} of ${int(of)} needed files ${form}`;
const interval = (s: Standing) =>
  s.whole.low === null || s.whole.high === null
    ? 'no interval'
    : `95% interval ${percent(s.whole.low)} to ${percent(s.whole.high)}`;
/** A share of cells with its interval: `38.6% of 140 cells (95% interval 30.9% to 46.9%)`. */
const rated = (s: Standing) => `${percent(s.allFullText)} of ${count(s.whole.of, 'cell')} (${interval(s)})`;
/** A p as people read one: four places, and a bound below the smallest they show. */
const pText = (p: number): string => (p < 1e-4 ? 'p < 0.0001' : `p = ${fixed(p, DIGITS.score)}`);
const listed = (names: readonly string[]) =>
  names.length < 2 ? names.join('') : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;

/** McNemar's test in words: the discordant cells each way, and p. */
function tested(t: Separation, code: (s: string) => string): string {
  const differ = t.aOnly + t.bOnly;
  const few =
    differ < MIN_DISCORDANT
      ? `; ${count(differ, 'cell')} ${differ === 1 ? 'differs' : 'differ'}, fewer than the ${MIN_DISCORDANT} any significant difference needs`
      : '';
  return (
    `McNemar's exact test over the ${count(t.cells, 'cell')} both hold: every needed file whole for ` +
    `${code(t.a)} alone in ${int(t.aOnly)}, for ${code(t.b)} alone in ${int(t.bOnly)}, ` +
    `${pText(t.p)}${few}`
  );
}

/** The verdict at one budget in sentences: the call, the test against the next, any form and the ceiling apart. */
export function verdictSentences(v: BudgetVerdict, code: (s: string) => string = (s) => s): string[] {
  const at = `${v.budget}${v.budgetTokens === null ? '' : ` (${int(v.budgetTokens)} tokens)`}`;
  const names = listed(v.leaders.map((s) => code(s.name)));
  const lead = v.leaders[0];
  const top = v.leaders.filter((s) => s.allFullText === lead?.allFullText);
  const out: string[] = [];
  if (v.call === 'none' || lead === undefined)
    out.push(
      `At ${at}, no strategy holds every needed file in full text in any of ${count(v.cells, 'cell')}.`,
    );
  else if (v.call === 'too-few')
    out.push(
      `At ${at}, ${count(v.cells, 'cell')} cannot separate the strategies: McNemar's exact test needs at least ` +
        `${MIN_DISCORDANT} cells where two strategies differ to reach p < ${ALPHA}. Highest, every needed file in ` +
        `full text: ${names}, ${rated(lead)}.`,
    );
  else if (v.call === 'leads')
    out.push(
      `At ${at}, ${names} leads: it holds every needed file in full text in ${rated(lead)}, ` +
        `${held(lead.heldFullText, v.needed, 'in full text')}, at ${tokens(lead)}.`,
    );
  else
    out.push(
      `At ${at}, no strategy leads: ${names} tie, as no strategy at the top is ahead of them at p < ${ALPHA}. ` +
        `${top.length > 1 ? `At the top, ${listed(top.map((s) => code(s.name)))} each hold` : `At the top, ${code(lead.name)} holds`} ` +
        `every needed file in full text in ${rated(lead)}.`,
    );
  if (v.next !== null && v.test !== null) {
    // Too few cells separate nobody: the next is within chance of the top whatever the test says.
    const within = v.call === 'too-few' || v.leaders.includes(v.next);
    out.push(
      `Next: ${code(v.next.name)}, ${percent(v.next.allFullText)}, at ${tokens(v.next)}; ` +
        `${within ? 'within chance of the top' : 'below the top'} by ${tested(v.test, code)}.`,
    );
  }
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

/** What a strategy among the leaders is called in the table, by the budget's call. */
function leaderStanding(v: BudgetVerdict, s: Standing): string {
  if (v.call === 'leads') return 'leader';
  if (v.call === 'too-few') return 'highest (cannot separate)';
  return s.allFullText === v.leaders[0]?.allFullText ? 'tied, at the top' : 'tied, within chance of the top';
}

/** The standings of one budget as a table: the leaders or the tie, the next, the best in any form, the ceiling. */
export function verdictTable(v: BudgetVerdict): Table {
  const line = (standing: string, s: Standing) => [
    s.name,
    standing,
    s.allFullText,
    s.whole.low,
    s.whole.high,
    s.pTop,
    s.heldFullText,
    s.allAnyForm,
    s.heldAnyForm,
    s.meanTokens,
  ];
  return {
    headers: headersOf('verdict'),
    rows: [
      ...v.leaders.map((s) => line(leaderStanding(v, s), s)),
      ...(v.next === null || v.leaders.includes(v.next) ? [] : [line('next', v.next)]),
      ...(v.anyForm === null ? [] : [line('best in any form', v.anyForm)]),
      ...v.ceilings.map((s) => line('ceiling (reads the ledger)', s)),
    ],
    kinds: kindsOf('verdict'),
    align: ['left', 'left', 'right', 'right', 'right', 'right', 'right', 'right', 'right', 'right'],
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
    'Verdict: the strategy whose bundles hold every needed file in full text most often, per budget, with its',
    `95% Wilson interval; it leads only when McNemar's exact test puts it above the next at p < ${ALPHA}, else the`,
    'top is a tie (nothing breaks one, tokens least of all); a path alone finds nothing.',
    ...lines,
  ].join('\n')}\n`;
}
