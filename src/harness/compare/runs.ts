/**
 * Two run folders side by side (`ctxbench compare`): the compilations that changed and how, what
 * one side holds and the other does not, and each strategy's headline figures over what both
 * hold. A compilation is identified by (case, budget, strategy).
 */

import { firstDifference, same } from '../audit/index.js';
import { DIGITS } from '../format.js';
import {
  figuresOf,
  PAIRED_FIGURES,
  type PairedTest,
  pairedTest,
  strategiesOf,
  strategyStats,
} from '../metrics/index.js';
import { compilationId, METRIC_FIELDS, type RunFolder, sameCorpus } from '../runfolder/index.js';
import type { Row } from '../types.js';
import { STRATEGY_ERROR } from '../vocabulary.js';

////////////////////////////////////////////////////////////////////////////////////////////////
// What changed in one compilation

export type Value = string | number | boolean | null | readonly string[];

export type Change =
  /** `bundle`, `refusal <reason>` or `error`. */
  | { readonly kind: 'outcome'; readonly a: string; readonly b: string }
  /** The admitted ids in bundle order, and the set difference each way (sorted). */
  | {
      readonly kind: 'admitted';
      readonly a: readonly string[];
      readonly b: readonly string[];
      readonly removed: readonly string[];
      readonly added: readonly string[];
    }
  | { readonly kind: 'value'; readonly field: string; readonly a: Value; readonly b: Value }
  /** Where the strategy's extras first differ (they can be large: a certificate, say). */
  | { readonly kind: 'extras'; readonly at: string };

const outcomeWords = (success: boolean, reason: string | null): string =>
  success
    ? 'bundle'
    : reason === STRATEGY_ERROR
      ? 'error'
      : reason === null
        ? 'refusal'
        : `refusal ${reason}`;

/** Every figure of a row besides outcome, admitted set and extras, in the order a change lists them. */
const VALUE_FIELDS: readonly (readonly [string, (r: Row) => Value])[] = [
  ['bundle_hash', (r) => r.bundle_hash],
  ['rendered_tokens', (r) => r.rendered_tokens],
  ['budget_tokens', (r) => r.budget_tokens],
  ['expected', (r) => outcomeWords(r.expected.success, r.expected.reason)],
  ...METRIC_FIELDS.map((f) => [f, (r: Row) => r[f]] as const),
  ['audit.legal', (r) => r.audit?.legal ?? null],
  ['audit.missing_required', (r) => r.audit?.missing_required ?? null],
  ['audit.objective.preferred', (r) => r.audit?.objective.preferred ?? null],
  ['audit.objective.discretionary', (r) => r.audit?.objective.discretionary ?? null],
  ['audit.objective.rendered_cost', (r) => r.audit?.objective.rendered_cost ?? null],
];

/**
 * Below this, two numbers are one figure: sums taken in another order differ in the last bits
 * (`0.30000000000000004` against `0.3`), which is not a change of the compilation.
 */
const EPSILON = 1e-9;

const sameValue = (a: Value, b: Value): boolean =>
  typeof a === 'number' && typeof b === 'number' ? Math.abs(a - b) <= EPSILON : same(a, b);

/**
 * Whether a change leaves the bundle and its scores as they were: the strategy's extras (a
 * search's node count, say) or the objective it reports. A compilation with only these is listed
 * apart, not counted as changed.
 */
export const besideTheBundle = (c: Change): boolean =>
  c.kind === 'extras' || (c.kind === 'value' && c.field.startsWith('audit.objective.'));

/** What differs between two rows of one compilation; empty when nothing does. */
export function changesOf(a: Row, b: Row): Change[] {
  const out: Change[] = [];
  const oa = outcomeWords(a.success, a.reason);
  const ob = outcomeWords(b.success, b.reason);
  if (oa !== ob) out.push({ kind: 'outcome', a: oa, b: ob });
  if (!same(a.admitted, b.admitted)) {
    const removed = a.admitted.filter((id) => !b.admitted.includes(id)).sort();
    const added = b.admitted.filter((id) => !a.admitted.includes(id)).sort();
    out.push({ kind: 'admitted', a: a.admitted, b: b.admitted, removed, added });
  }
  for (const [field, pick] of VALUE_FIELDS) {
    const va = pick(a);
    const vb = pick(b);
    if (!sameValue(va, vb)) out.push({ kind: 'value', field, a: va, b: vb });
  }
  const at = firstDifference(a.extras, b.extras, 'extras');
  if (at !== null) out.push({ kind: 'extras', at });
  return out;
}

////////////////////////////////////////////////////////////////////////////////////////////////
// Two runs

/** The figures the catalogue's compare table shows, by name, for one strategy. */
export type Headline = Readonly<Record<string, number | null>>;

/** `n` to `digits` places, as a number; never `-0`. */
const rounded = (n: number, digits: number): number => Number(n.toFixed(digits)) || 0;

const headlineOf = (rows: readonly Row[]): Headline => {
  const s = strategyStats(rows);
  return Object.fromEntries(figuresOf('compare').map((f) => [f.name, f.of(s)]));
};

export interface StrategyDelta {
  readonly strategy: string;
  /** Compilations of the strategy both runs hold: the headline figures are over these alone. */
  readonly compilations: number;
  readonly changed: number;
  /** Compilations whose bundle and scores held, but not their extras or objective. */
  readonly extras_only: number;
  readonly a: Headline;
  readonly b: Headline;
  /** b - a, rounded to the places of its kind (no float noise); null where either is null. */
  readonly delta: Headline;
  /** Each figure of the catalogue's PAIRED_FIGURES tested cell by cell, under its name, in its order. */
  readonly tests: Readonly<Record<string, PairedTest>>;
}

export interface ChangedCompilation {
  readonly case: string;
  readonly budget: string;
  readonly strategy: string;
  readonly changes: readonly Change[];
}

/** One run, and what it holds that the other does not. */
export interface Side {
  readonly run: string;
  /** The corpus's name and digest, and how many cases the run holds. */
  readonly corpus: { readonly name: string; readonly digest: string | null; readonly cases: number };
  readonly compilations: number;
  readonly only: {
    readonly strategies: readonly string[];
    readonly cases: readonly string[];
    /** One-sided compilations that neither a one-sided strategy nor a one-sided case explains. */
    readonly compilations: readonly string[];
  };
}

/** The bootstrap's seed when none is given. */
export const DEFAULT_SEED = 'compare';

export interface Comparison {
  /** What seeded the bootstrap intervals. */
  readonly seed: string;
  readonly a: Side;
  readonly b: Side;
  readonly same_corpus: boolean;
  /** Null when a manifest is missing and there is no telling. */
  readonly same_policy: boolean | null;
  /** The policy's top-level fields whose values differ, sorted; empty when the policies agree or are unknown. */
  readonly policy_fields: readonly string[];
  /**
   * Compilations both runs hold, how many of them changed, and how many differ only beside
   * their bundle (extras, objective), which are not counted as changed.
   */
  readonly compilations: { readonly shared: number; readonly changed: number; readonly extras_only: number };
  /** In run A's (loop) order. */
  readonly changes: readonly ChangedCompilation[];
  /** Compilations whose bundle and scores held while their extras or objective moved, in A's order. */
  readonly extras_only: readonly ChangedCompilation[];
  /** The strategies both runs hold, in run A's order. */
  readonly headline: readonly StrategyDelta[];
}

/** Whether anything differs: a changed compilation, or anything held on one side only. */
export const anythingChanged = (c: Comparison): boolean =>
  c.compilations.changed > 0 ||
  [c.a, c.b].some((s) => s.only.strategies.length + s.only.cases.length + s.only.compilations.length > 0);

/**
 * Two runs compilation by compilation. `seed` seeds each figure's bootstrap (with the strategy's
 * and the figure's names, so that no figure's interval depends on which others are tested).
 */
export function compareRuns(a: RunFolder, b: RunFolder, seed = DEFAULT_SEED): Comparison {
  const byId = (rows: readonly Row[]) => new Map(rows.map((r) => [compilationId(r), r]));
  const rowsA = byId(a.rows);
  const rowsB = byId(b.rows);
  const side = (run: RunFolder, other: RunFolder, otherRows: ReadonlyMap<string, Row>): Side => {
    const theirStrategies = new Set(other.rows.map((r) => r.strategy));
    const theirCases = new Set(other.corpus.cases);
    const strategies = strategiesOf(run.rows).filter((s) => !theirStrategies.has(s));
    const cases = run.corpus.cases.filter((c) => !theirCases.has(c));
    // A missing strategy or case is named once, not as each of its compilations.
    const compilations = run.rows
      .filter((r) => !otherRows.has(compilationId(r)))
      .filter((r) => !strategies.includes(r.strategy) && !cases.includes(r.case))
      .map(compilationId);
    return {
      run: run.dir,
      corpus: { name: run.corpus.name, digest: run.corpus.digest, cases: run.corpus.cases.length },
      compilations: run.rows.length,
      only: { strategies, cases, compilations },
    };
  };
  const pairs = a.rows.flatMap((x) => {
    const y = rowsB.get(compilationId(x));
    if (y === undefined) return [];
    const changes = changesOf(x, y);
    const changed = changes.some((c) => !besideTheBundle(c));
    return [{ a: x, b: y, changes, changed, extrasOnly: changes.length > 0 && !changed }];
  });
  const listed = (p: (typeof pairs)[number]): ChangedCompilation => ({
    case: p.a.case,
    budget: p.a.budget,
    strategy: p.a.strategy,
    changes: p.changes,
  });
  const changes = pairs.filter((p) => p.changed).map(listed);
  const extrasOnly = pairs.filter((p) => p.extrasOnly).map(listed);
  const headline = strategiesOf(pairs.map((p) => p.a)).map((strategy): StrategyDelta => {
    const mine = pairs.filter((p) => p.a.strategy === strategy);
    const ha = headlineOf(mine.map((p) => p.a));
    const hb = headlineOf(mine.map((p) => p.b));
    const delta = Object.fromEntries(
      figuresOf('compare').map(({ name, kind }) => {
        const [x, y] = [ha[name] ?? null, hb[name] ?? null];
        return [name, x === null || y === null ? null : rounded(y - x, DIGITS[kind])];
      }),
    );
    const changed = mine.filter((p) => p.changed).length;
    const extras_only = mine.filter((p) => p.extrasOnly).length;
    const tests = Object.fromEntries(
      PAIRED_FIGURES.map((f) => [
        f.name,
        pairedTest(
          mine.map((p) => [f.of(p.a), f.of(p.b)] as const),
          `${seed}/${strategy}/${f.name}`,
        ),
      ]),
    );
    return { strategy, compilations: mine.length, changed, extras_only, a: ha, b: hb, delta, tests };
  });
  return {
    seed,
    a: side(a, b, rowsB),
    b: side(b, a, rowsA),
    same_corpus: sameCorpus(
      { digest: a.corpus.digest, cells: a.rows },
      { digest: b.corpus.digest, cells: b.rows },
    ),
    same_policy: a.policy === null || b.policy === null ? null : a.policy === b.policy,
    policy_fields: policyFields(a.policy, b.policy),
    compilations: { shared: pairs.length, changed: changes.length, extras_only: extrasOnly.length },
    changes,
    extras_only: extrasOnly,
    headline,
  };
}

/** The top-level fields two policies (JSON text) disagree on, one present on one side only included. */
function policyFields(a: string | null, b: string | null): string[] {
  if (a === null || b === null || a === b) return [];
  const pa = JSON.parse(a) as Record<string, unknown>;
  const pb = JSON.parse(b) as Record<string, unknown>;
  const keys = [...new Set([...Object.keys(pa), ...Object.keys(pb)])].sort();
  return keys.filter((k) => firstDifference(pa[k], pb[k]) !== null);
}

/**
 * Two strategies of one run as two runs of one strategy, `A vs B`, so that every cell pairs A's
 * compilation with B's of the same case and budget.
 */
export function strategyPair(run: RunFolder, a: string, b: string): [RunFolder, RunFolder] {
  const name = `${a} vs ${b}`;
  const only = (s: string): RunFolder => ({
    ...run,
    dir: `${run.dir} (${s})`,
    rows: run.rows.filter((r) => r.strategy === s).map((r) => ({ ...r, strategy: name })),
  });
  return [only(a), only(b)];
}
