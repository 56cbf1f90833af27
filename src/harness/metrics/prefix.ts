/**
 * Prefix stability: how much of a bundle's rendered text begins exactly as the bundle before it
 * did. A provider's prompt cache bills such a prefix at a fraction of the input price, so a
 * strategy whose windows grow by appending saves money on every call that a reshuffling one does
 * not. Two sequences are compared per strategy: the budgets of one case (tight, medium, roomy),
 * and consecutive cases at one budget (which share content in generated agent pools and ingested
 * repositories). Computed from the rendered texts of compilations.jsonl, not from the rows, so
 * that a sharded run merged gives the same figures as one run.
 */
import type { Row } from '../types.js';

/**
 * What a cached input token costs against an uncached one. Anthropic bills cache reads at a tenth
 * of the input price; OpenAI discounts cached input by half or more. The saving quoted is at a
 * tenth, and a provider's minimum cacheable length is not applied.
 */
export const CACHED_PRICE = 0.1;

/** One sequence's figures for one strategy: pairs of consecutive bundles, both present. */
export interface PrefixFigures {
  readonly pairs: number;
  /** Mean common prefix, in o200k tokens. */
  readonly prefix_tokens: number | null;
  /** Mean of prefix over the later bundle's o200k tokens. */
  readonly share: number | null;
  /** Of the later bundles' input cost, the share a prompt cache would save at CACHED_PRICE. */
  readonly saving: number | null;
}

export interface PrefixStability {
  readonly budgets: PrefixFigures;
  readonly cases: PrefixFigures;
}

/** The longest common prefix of two texts, by UTF-16 unit, never splitting a surrogate pair. */
export function commonPrefix(a: string, b: string): string {
  const n = Math.min(a.length, b.length);
  let k = 0;
  while (k < n && a.charCodeAt(k) === b.charCodeAt(k)) k++;
  // Half a character is no character.
  if (k > 0 && k < n && a.charCodeAt(k - 1) >= 0xd800 && a.charCodeAt(k - 1) <= 0xdbff) k--;
  return a.slice(0, k);
}

interface Pair {
  readonly prefix: number;
  readonly tokens: number;
}

function figures(pairs: readonly Pair[]): PrefixFigures {
  if (pairs.length === 0) return { pairs: 0, prefix_tokens: null, share: null, saving: null };
  const total = pairs.reduce((n, p) => n + p.tokens, 0);
  const prefix = pairs.reduce((n, p) => n + p.prefix, 0);
  return {
    pairs: pairs.length,
    prefix_tokens: prefix / pairs.length,
    share: pairs.reduce((n, p) => n + (p.tokens === 0 ? 0 : p.prefix / p.tokens), 0) / pairs.length,
    saving: total === 0 ? null : (prefix * (1 - CACHED_PRICE)) / total,
  };
}

/**
 * Each strategy's prefix stability, taken a row at a time in loop order (cases sorted, then
 * budgets, then strategies) with the row's rendered text (null for no bundle), so that one read
 * of compilations.jsonl feeds it beside the page's grid. `count` gives a text's o200k tokens. The
 * common prefix is counted as the tokens of the longest common text prefix: the word at the cut
 * may tokenize otherwise inside the longer text, a difference of a token or two a pair.
 */
export class PrefixTally {
  private readonly pending = new Map<string, { budgets: Promise<Pair>[]; cases: Promise<Pair>[] }>();
  // The previous bundle's text in each sequence: the case before at this budget, the budget before in this case.
  private readonly lastOfBudget = new Map<string, string>();
  // Of this case only, by strategy: rows come a case at a time, and a text kept for every case
  // past held every strategy's last bundle of each, 750 MB for 140 SWE-bench instances.
  private readonly lastOfCase = new Map<string, { readonly kase: string; readonly text: string }>();
  private readonly count: (text: string) => Promise<number>;
  // Counts asked and not yet answered, oldest first: the texts wait in the counting thread's queue.
  private readonly flight: Promise<unknown>[] = [];

  /** `rows`: the run's, whose strategies the figures name in order, fed or not. */
  constructor(rows: readonly Row[], count: (text: string) => Promise<number>) {
    this.count = count;
    for (const r of rows)
      if (!this.pending.has(r.strategy)) this.pending.set(r.strategy, { budgets: [], cases: [] });
  }

  add(r: Row, text: string | null): void {
    const byBudget = `${r.strategy}\u0000${r.budget}`;
    const sequences = this.pending.get(r.strategy);
    if (sequences === undefined) return;
    if (text === null) {
      this.lastOfBudget.delete(byBudget);
      this.lastOfCase.delete(r.strategy);
      return;
    }
    const inCase = this.lastOfCase.get(r.strategy);
    const budgetBefore = inCase?.kase === r.case ? inCase.text : undefined;
    if (budgetBefore !== undefined) sequences.budgets.push(this.pair(budgetBefore, text, r));
    const caseBefore = this.lastOfBudget.get(byBudget);
    if (caseBefore !== undefined) sequences.cases.push(this.pair(caseBefore, text, r));
    this.lastOfCase.set(r.strategy, { kase: r.case, text });
    this.lastOfBudget.set(byBudget, text);
  }

  /**
   * Resolves once at most `most` counts are unanswered: a reader faster than the counting thread
   * would otherwise queue every prefix of a run there, a gigabyte for 140 SWE-bench instances.
   */
  async settle(most: number): Promise<void> {
    while (this.flight.length > most) await this.flight.shift();
  }

  async result(): Promise<Map<string, PrefixStability>> {
    const out = new Map<string, PrefixStability>();
    for (const [name, s] of this.pending)
      out.set(name, {
        budgets: figures(await Promise.all(s.budgets)),
        cases: figures(await Promise.all(s.cases)),
      });
    return out;
  }

  private pair(before: string, text: string, row: Row): Promise<Pair> {
    const own = row.audit?.real_tokens?.o200k;
    const counted = Promise.all([this.count(commonPrefix(before, text)), own ?? this.count(text)]);
    this.flight.push(counted);
    return counted.then(([prefix, tokens]) => ({ prefix, tokens }));
  }
}

/** Each strategy's prefix stability from the run's rows and each row's rendered text, in the same order. */
export function prefixStability(
  rows: readonly Row[],
  texts: Iterable<string | null>,
  count: (text: string) => Promise<number>,
): Promise<Map<string, PrefixStability>> {
  const tally = new PrefixTally(rows, count);
  let k = 0;
  for (const text of texts) {
    const r = rows[k++];
    if (r === undefined) break;
    tally.add(r, text);
  }
  return tally.result();
}

/** The line's rendered text when the line is this row's compilation; null otherwise. */
export function renderedText(line: string | Record<string, unknown>, r: Row): string | null {
  let parsed: unknown = line;
  if (typeof line === 'string')
    try {
      parsed = JSON.parse(line);
    } catch {
      return null;
    }
  const c = parsed as Record<string, unknown> | null;
  if (c === null || c.case !== r.case || c.budget !== r.budget || c.strategy !== r.strategy) return null;
  return typeof c.rendered_text === 'string' ? c.rendered_text : null;
}
