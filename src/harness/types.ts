/**
 * Every public type of the harness, in one place: the strategy plug-in interface, the hidden
 * ledger, a corpus, a compilation as the harness measures it, and (from `types-rows.ts`) the
 * rows a study writes.
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
import type { BudgetName } from './types-rows.js';
import type { EVAL_CLASSES, PROFILES } from './vocabulary.js';

export type {
  Audit,
  BudgetName,
  CompilationLine,
  Composition,
  Measures,
  Metrics,
  Objective,
  Placed,
  RealTokenStats,
  RealTokens,
  Row,
  ScalarMeasure,
  Shard,
  ShardInfo,
  StrategyStats,
  Tokenizer,
  ValidationRule,
  Violations,
} from './types-rows.js';

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
  /**
   * An answer now rather than a proof (`pack` and MCP, unless asked to certify): a strategy that
   * searches may stop at a small work limit and say how far from the optimum it may be
   * (`extras.within_percent`). A study never sets it.
   */
  readonly anytime?: boolean | undefined;
}

/** A bundle: the admitted candidate ids. The harness orders, renders, prices and hashes them. */
export interface Admission {
  readonly admitted: readonly string[];
  /**
   * `"own"`: lay the bundle out in the order of `admitted` (a peer that ranks, prioritises or
   * reorders). Absent or `"policy"`: the policy's role order, as for the published strategies.
   */
  readonly layout?: 'policy' | 'own' | undefined;
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
  /**
   * Deterministic: no clock, no randomness, no I/O. Synchronous, except a peer whose library
   * renders only asynchronously (prompt-tsx), which may return a promise: a study awaits it.
   */
  assemble(input: StrategyInput): Selection;
}

/**
 * A strategy that must sometimes wait (compiler-v2 when it loads the integer program, a peer whose
 * library renders only asynchronously): its `assemble` may return a promise, which every command
 * awaits. Calling it directly, a caller awaits too.
 */
export interface WaitingStrategy extends StrategyInfo {
  assemble(input: StrategyInput): Selection | Promise<Selection>;
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
  /**
   * Needed files no form of which is in the pool (a file the fix creates), with the reason: a
   * scorer counts each as missed. Absent when the truth file lists none.
   */
  readonly must_not_in_pool?: Readonly<Record<string, string>>;
}

////////////////////////////////////////////////////////////////////////////////////////////////
// Corpora

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
  /** What each case is for: the manifest's optional `purpose`, case name to a sentence. */
  readonly purposes: ReadonlyMap<string, string>;
  /** Written by `ingest` (its manifest has an `ingest` block): the report leads with localization. */
  readonly ingested: boolean;
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
  /** Present when the strategy laid the bundle out in its own order (`Admission.layout`). */
  readonly layout?: 'own' | undefined;
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
