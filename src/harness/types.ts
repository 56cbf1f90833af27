/**
 * Every public type of the harness, in one place: the strategy plug-in interface, the hidden
 * ledger, a corpus, a compilation as the harness measures it, and the rows a study writes.
 * Strategy authors need only the first section. Word lists come from `vocabulary.ts`.
 */
import type {
  CompilationResult,
  CompilerPolicy,
  ContextBundle,
  ContextCandidate,
  ContextRequest,
  FailureReason,
  TraceEntry,
} from '../compiler/index.js';
import type {
  BUDGETS,
  EVAL_CLASSES,
  PROFILES,
  TOKENIZERS,
  VALIDATION_RULES,
  VIOLATION_KINDS,
} from './vocabulary.js';

////////////////////////////////////////////////////////////////////////////////////////////////
// Strategies

/**
 * Per candidate id, the keys of its record the compiler does not read (a `tier`, say). Lenient
 * readers ignore them; a strategy that understands one can look it up here.
 */
export type Annotations = ReadonlyMap<string, Readonly<Record<string, unknown>>>;

/** What `assemble` receives. Only a strategy with `readsLedger: true` is given `ledger`. */
export interface StrategyInput {
  readonly request: ContextRequest;
  /** In corpus file order; every strategy sees the same list. */
  readonly candidates: readonly ContextCandidate[];
  readonly policy: CompilerPolicy;
  /** The usable token budget (also `request.usable_token_budget`). */
  readonly budget: number;
  readonly ledger?: CaseLedger | undefined;
  /** Candidate keys the compiler does not read, per candidate id. */
  readonly annotations?: Annotations | undefined;
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

/** What a strategy returns. */
export type Selection = Admission | Refusal;

/** What is known of a strategy besides its code: what a run folder's manifest records. */
export interface StrategyInfo {
  /** Unique; the file's stem. */
  readonly name: string;
  /** One line. */
  readonly description: string;
  /** True only for a strategy that must see the hidden ledger (the oracle). */
  readonly readsLedger?: boolean | undefined;
}

/** A strategy's file, found but not loaded: its name is the file's stem. */
export interface StrategyRef {
  readonly name: string;
  readonly file: string;
}

/** A strategy that runs in a process of its own: its file, and what it said of itself. */
export interface HostedStrategy extends StrategyRef, StrategyInfo {}

/** A strategy is one file in `strategies/` whose default export is this object. */
export interface Strategy extends StrategyInfo {
  /** Synchronous and deterministic: no clock, no randomness, no I/O. */
  assemble(input: StrategyInput): Selection;
}

////////////////////////////////////////////////////////////////////////////////////////////////
// The hidden ledger

export type EvalClass = (typeof EVAL_CLASSES)[number];

export interface IdentityTruth {
  readonly eval_class: EvalClass;
  /** The minimum sufficient form; only the oracle uses it. */
  readonly min_representation: string;
}

/** One case's truth: classes attach to content identities, not candidates. */
export interface CaseLedger {
  readonly expected: Expectation;
  readonly identity_truth: Readonly<Record<string, IdentityTruth>>;
}

////////////////////////////////////////////////////////////////////////////////////////////////
// Corpora

export type BudgetName = (typeof BUDGETS)[number];

/** A shape of generated pool. */
export type Profile = (typeof PROFILES)[number];

/** The outcome a budget manifest expects: a bundle, or a refusal (with its reason, if named). */
export interface Expectation {
  readonly success: boolean;
  readonly reason: FailureReason | null;
}

export interface CorpusCase {
  readonly name: string;
  /** The case's base request; `requestAt` derives the one each budget runs with. */
  readonly request: ContextRequest;
  /** In file order: every strategy sees the same list. */
  readonly candidates: readonly ContextCandidate[];
  readonly annotations: Annotations;
  readonly budgets: Readonly<Record<BudgetName, number>>;
  readonly expected: Readonly<Record<BudgetName, Expectation>>;
}

export interface Corpus {
  readonly dir: string;
  readonly name: string;
  readonly policy: CompilerPolicy;
  readonly policyFile: string;
  /** Sorted by name. */
  readonly cases: readonly CorpusCase[];
}

////////////////////////////////////////////////////////////////////////////////////////////////
// A compilation, as the harness measures any strategy's selection

/** A strategy's bundle, ordered, rendered, priced and hashed by the harness. */
export interface CompiledBundle {
  readonly outcome: 'bundle';
  /** Bundle order. */
  readonly admitted: readonly string[];
  readonly live: readonly ContextCandidate[];
  readonly bundle: ContextBundle;
  readonly renderedTokens: number;
  /** A CompilationResult v2. */
  readonly record: CompilationResult;
  /** The record as JSON, as compilations.jsonl and `compile` write it. */
  readonly result: Readonly<Record<string, unknown>>;
  readonly renderedText: string;
  readonly extras: Readonly<Record<string, unknown>>;
}

/** A strategy's named refusal. */
export interface CompiledRefusal {
  readonly outcome: 'refusal';
  /** The refusal code; a strategy's may lie outside the compiler's six. */
  readonly reason: string;
  /** A CompilationResult v2 (the validators never read the reason, hence its loose type). */
  readonly record: CompilationResult;
  readonly result: Readonly<Record<string, unknown>>;
  readonly extras: Readonly<Record<string, unknown>>;
}

/** A strategy that threw or returned something malformed: an error row, never scored. */
export interface CompiledError {
  readonly outcome: 'error';
  readonly message: string;
  /** `{ error: message }`, as the row keeps it. */
  readonly extras: Readonly<Record<string, unknown>>;
}

export type Compiled = CompiledBundle | CompiledRefusal | CompiledError;

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
  /** Mean, over those bundles, of the rendered cost (declared counts and the word estimate) over the real count. */
  readonly declared_to_real: number | null;
  /** Bundles within the budget by the rendered cost but over it by the real count. */
  readonly overruns: number;
}

/** A compilation as compilations.jsonl holds it. */
export interface CompilationLine {
  readonly case: string;
  readonly budget: BudgetName;
  readonly strategy: string;
  readonly bundle: unknown;
  readonly result: unknown;
  readonly rendered_text: string | null;
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
  readonly illegal: number;
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
