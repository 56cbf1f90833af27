/**
 * Every public type of the harness: the strategy plug-in interface, the hidden ledger, and the
 * rows a study writes. Strategy authors need only the first section.
 */
import type {
  CompilerPolicy,
  ContextCandidate,
  ContextRequest,
  FailureReason,
  TraceEntry,
} from '../compiler/index.js';
import type { BudgetName } from './corpus.js';

////////////////////////////////////////////////////////////////////////////////////////////////
// Strategies

/** What `assemble` receives. Only a strategy with `readsLedger: true` is given `ledger`. */
export interface StrategyInput {
  readonly request: ContextRequest;
  /** In corpus file order; every strategy sees the same list. */
  readonly candidates: readonly ContextCandidate[];
  readonly policy: CompilerPolicy;
  /** The usable token budget (also `request.usable_token_budget`). */
  readonly budget: number;
  readonly ledger?: CaseLedger | undefined;
  /** Candidate keys the compiler does not read (a `tier`, say), per candidate id. */
  readonly annotations?: ReadonlyMap<string, Readonly<Record<string, unknown>>> | undefined;
}

/** A bundle: the admitted candidate ids. The harness orders, renders, prices and hashes them. */
export interface Admission {
  readonly admitted: readonly string[];
  readonly trace?: readonly TraceEntry[] | undefined;
  readonly extras?: Readonly<Record<string, unknown>> | undefined;
}

/** A named refusal. Reasons of strategies other than the compiler may lie outside its six. */
export interface Refusal {
  readonly refusal: {
    readonly reason: string;
    readonly blocking_ids?: readonly string[] | undefined;
    readonly diagnostic?: string | undefined;
    /** Tokens committed when the strategy gave up, if it keeps such an account. */
    readonly budget_used?: number | undefined;
  };
  readonly trace?: readonly TraceEntry[] | undefined;
  readonly extras?: Readonly<Record<string, unknown>> | undefined;
}

export type Selection = Admission | Refusal;

/** A strategy is one file in `strategies/` whose default export is this object. */
export interface Strategy {
  /** Unique; the file's stem. */
  readonly name: string;
  /** One line. */
  readonly description: string;
  /** True only for a strategy that must see the hidden ledger (the oracle). */
  readonly readsLedger?: boolean | undefined;
  /** Synchronous and deterministic: no clock, no randomness, no I/O. */
  assemble(input: StrategyInput): Selection;
}

////////////////////////////////////////////////////////////////////////////////////////////////
// The hidden ledger

export type EvalClass = 'must' | 'should' | 'optional' | 'distractor' | 'harmful';

export interface IdentityTruth {
  readonly eval_class: EvalClass;
  /** The minimum sufficient form; only the oracle uses it. */
  readonly min_representation: string;
}

/** One case's truth: classes attach to content identities, not candidates. */
export interface CaseLedger {
  readonly expected: { readonly success: boolean; readonly reason: FailureReason | null };
  readonly identity_truth: Readonly<Record<string, IdentityTruth>>;
}

////////////////////////////////////////////////////////////////////////////////////////////////
// Rows

/** The metrics of spec/study.md section 7, under their names there. Null on an error row. */
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
}

export interface Audit {
  /** Every legality rule holds (gates, dependencies, one form, groups, required content, budget). */
  readonly legal: boolean;
  /** MANDATORY or REQUIRED contents and named ids the bundle lacks. */
  readonly missing_required: readonly string[];
  /** Earned PREFERRED and DISCRETIONARY relevance and the rendered cost, as `exact` counts them. */
  readonly objective: {
    readonly preferred: number;
    readonly discretionary: number;
    readonly rendered_cost: number;
  };
}

export const STRATEGY_ERROR = 'STRATEGY_ERROR';
