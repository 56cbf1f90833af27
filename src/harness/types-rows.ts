/**
 * The public types of what a study writes: rows, their audit and real token counts, compilations,
 * aggregates, shards. `types.ts` re-exports them all, so that every public type of the harness is
 * imported from one place; they live here to keep each file to one concern.
 */
import type { RequirementClass } from '../compiler/index.js';
import type { BUDGETS, TOKENIZERS, VALIDATION_RULES, VIOLATION_KINDS } from './vocabulary.js';

export type BudgetName = (typeof BUDGETS)[number];

////////////////////////////////////////////////////////////////////////////////////////////////
// Rows

/** The metrics of the study, under the names rows.jsonl uses. Null on an error row. */
export interface Metrics {
  readonly status_correct: boolean | null;
  readonly budget_compliant: boolean | null;
  readonly must_recall: number | null;
  readonly should_recall: number | null;
  readonly must_total: number | null;
  readonly should_total: number | null;
  readonly precision: number | null;
  readonly distractor_admission: number | null;
  readonly harmful_admission: number | null;
  readonly illegal_admission: number | null;
  readonly scope_violations: number | null;
  readonly freshness_violations: number | null;
  readonly authority_violations: number | null;
  readonly floor_violations: number | null;
  readonly dependency_violations: number | null;
  readonly group_violations: number | null;
  readonly under_admission: number | null;
  readonly over_admission: number | null;
  readonly budget_slack: number | null;
}

/** One compilation of a study: a line of `rows.jsonl`. */
export interface Row extends Metrics {
  readonly case: string;
  readonly budget: BudgetName;
  readonly budget_tokens: number;
  readonly strategy: string;
  readonly success: boolean;
  /** Null, a refusal code, or STRATEGY_ERROR. */
  readonly reason: string | null;
  /** In bundle order. */
  readonly admitted: readonly string[];
  readonly bundle_hash: string | null;
  readonly rendered_tokens: number;
  /** What the corpus manifest expects for this case and budget. */
  readonly expected: { readonly success: boolean; readonly reason: string | null };
  /** Ledger-free facts about the bundle (null without one): legality and the exact objective. */
  readonly audit: Audit | null;
  readonly extras: Readonly<Record<string, unknown>>;
  /**
   * The field's measures of the bundle (metrics/measures.ts): null for a refusal or an error, absent
   * from runs written before ctxbench measured them.
   */
  readonly measures?: Measures | null;
}

/**
 * Where a bundle puts what the task needs, how it ranks it, how much of its window is useful, how
 * much of the budget it uses and what the window is made of. Every token here is on the ruler of
 * `rendered_tokens`: an item's render cost (declared count and decoration), the frame's header
 * and separators priced by the policy, so the parts sum to the whole.
 */
export interface Measures {
  /** Of the must items' tokens, the share that lies in the middle third of the rendered tokens; null with no must item admitted. */
  readonly must_middle_share: number | null;
  /** Mean of start offset / rendered tokens over the must and should items admitted; null with none. */
  readonly mean_position: number | null;
  /** nDCG at the bundle's length of the rendered order by ledger gain, against the pool's best contents; null when no gain is possible. */
  readonly ndcg: number | null;
  /** 1 / the rank of the first must item in rendered order, 0 with none admitted; null when the case has no must content. */
  readonly first_must_rr: number | null;
  // The three below are absent from runs written before ctxbench measured them.
  /**
   * Of the case's must contents (those the pool cannot hold included), the share held in the form
   * the ledger names sufficient (`min_representation`) or a fuller one; null with none. On a
   * corpus of files (ingest, SWE-bench) the sufficient form is the full text.
   */
  readonly must_sufficient_recall?: number | null;
  /**
   * 1 / the rank of the first must content in the ranking the strategy published (`extras.ranked`,
   * content identities best first), 0 when that ranking holds none; null when the strategy
   * published no ranking or the case has no must content. Its mean is the MRR of the ranking.
   */
  readonly ranked_must_rr?: number | null;
  /**
   * The rank in that ranking by which every must content has appeared: file accuracy at k is
   * this rank from 1 to k. 0 when the ranking lacks one (a must content outside the pool
   * included); null as for `ranked_must_rr`.
   */
  readonly ranked_all_must_rank?: number | null;
  /** Must and should items' tokens over rendered tokens. */
  readonly useful_share: number;
  /** Must items' tokens over rendered tokens. */
  readonly must_token_share?: number;
  /** Tokens of items that near-duplicate content laid out before them (word 4-gram shingles, four fifths or more already seen). */
  readonly redundant_tokens: number;
  /** Rendered tokens over the requested budget; null at a budget of 0. */
  readonly budget_use: number | null;
  /** Rendered tokens beyond the budget, 0 within it. */
  readonly overshoot_tokens: number;
  /** Every must and should item admitted, in rendered order. */
  readonly positions: readonly Placed[];
  readonly composition: Composition;
}

/** The measures that are one number per bundle (positions and composition are breakdowns). */
export type ScalarMeasure = Exclude<keyof Measures, 'positions' | 'composition'>;

/** A must or should item in the rendered text. */
export interface Placed {
  readonly id: string;
  readonly class: 'must' | 'should';
  /** Tokens before the item starts. */
  readonly start: number;
  /** The item's own tokens (its render cost). */
  readonly tokens: number;
}

/** A bundle's rendered tokens by what holds them: the frame, each order role, each requirement class. */
export interface Composition {
  /** The header and the separators. */
  readonly frame: number;
  /** Items' tokens by order role, in rendered order of first appearance. */
  readonly roles: Readonly<Record<string, number>>;
  /** Items' tokens by requirement class, every class present (0 where none). */
  readonly classes: Readonly<Record<RequirementClass, number>>;
}

/** The ledger-free objective of a bundle, as `exact` ranks bundles. */
export interface Objective {
  /** Relevance of the admitted PREFERRED-class candidates that earn. */
  readonly preferred: number;
  /** The same for DISCRETIONARY. */
  readonly discretionary: number;
  readonly rendered_cost: number;
}

export interface Audit {
  /** Every legality rule holds (gates, dependencies, one form, groups, required content, budget). */
  readonly legal: boolean;
  /** MANDATORY or REQUIRED contents and named ids the bundle lacks. */
  readonly missing_required: readonly string[];
  /** Earned PREFERRED and DISCRETIONARY relevance and the rendered cost, as `exact` counts them. */
  readonly objective: Objective;
  /**
   * The rendered text as real tokenizers count it (the rendered cost is a word estimate); absent
   * from runs written before ctxbench counted them.
   */
  readonly real_tokens?: RealTokens;
}

/** A real tokenizer: see `TOKENIZERS`. */
export type Tokenizer = (typeof TOKENIZERS)[number];

/** A text's length in each real tokenizer's tokens. */
export type RealTokens = Readonly<Record<Tokenizer, number>>;

/** One strategy's bundles counted by one real tokenizer. */
export interface RealTokenStats {
  /** Bundles counted. */
  readonly bundles: number;
  /** Mean, over those bundles, of the rendered cost (declared counts and the priced overhead) over the real count. */
  readonly declared_to_real: number | null;
  /** Bundles within the budget by the rendered cost but over it by the real count. */
  readonly overruns: number;
}

/** A compilation as compilations.jsonl holds it. */
export interface CompilationLine {
  readonly case: string;
  readonly budget: BudgetName;
  readonly strategy: string;
  /**
   * The corpus digest, for a line of an ingested corpus whose texts are by reference to it
   * (runfolder/by-reference.ts): its bundle, trace and rendered text are then read back by
   * `expandLine`. Absent for a line that holds everything itself.
   */
  readonly by_reference?: string | undefined;
  readonly bundle: unknown;
  readonly result: unknown;
  readonly rendered_text: string | null;
  /** `"own"` when the strategy laid the bundle out in its own order; absent for the policy's order. */
  readonly layout?: 'own' | undefined;
}

////////////////////////////////////////////////////////////////////////////////////////////////
// Aggregates

export type Violations = Readonly<Record<(typeof VIOLATION_KINDS)[number], number>>;

/** A rule `validate` checks: see `VALIDATION_RULES`. */
export type ValidationRule = (typeof VALIDATION_RULES)[number];

/** Sums and means over one strategy's rows: a strategy's entry in summary.json. */
export interface StrategyStats {
  readonly rows: number;
  readonly correct: number;
  /** Scored rows whose outcome is not the expected one. */
  readonly wrong: number;
  readonly refusals: number;
  readonly errors: number;
  /** Admitted items failing a hard gate (the published study's illegal admissions). */
  readonly illegal: number;
  /** Bundles breaking any legality rule: a gate, a dependency, a group, two forms, missing required content, the budget. */
  readonly illegal_bundles: number;
  /** Bundles whose rendered tokens exceed the requested budget. */
  readonly over_budget: number;
  readonly violations: Violations;
  readonly distractor: number;
  readonly harmful: number;
  /** Mean must recall over the rows whose expected outcome is a bundle. */
  readonly must_recall_feasible: number | null;
  readonly must_recall_all: number | null;
  readonly should_recall: number | null;
  readonly precision: number | null;
  readonly over_admission: number;
  readonly under_admission: number;
  readonly rendered_tokens: number;
  /** Mean slack over the feasible rows that returned a bundle. */
  readonly budget_slack_feasible: number | null;
  readonly real_tokens: Readonly<Record<Tokenizer, RealTokenStats>>;
  /** Each bundle measure over the bundles that define it: a mean, or for tokens a sum (the catalogue says which). */
  readonly measures: Readonly<Record<ScalarMeasure, number | null>>;
  /** The bundles' tokens by what holds them, summed; null when no row carries measures. */
  readonly composition: Composition | null;
}

////////////////////////////////////////////////////////////////////////////////////////////////
// Shards

export interface Shard {
  /** 1-based. */
  readonly index: number;
  readonly count: number;
}

export interface ShardInfo extends Shard {
  /** Cells [from, to) of `total` in loop order. */
  readonly from: number;
  readonly to: number;
  readonly total: number;
}
