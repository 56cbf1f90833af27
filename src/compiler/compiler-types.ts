/**
 * Every public type of the Context Compiler. Field names are the snake_case JSON keys of the
 * records (docs/compiler.md §2), so a record and its JSON never need a mapping table. The word
 * lists come from `vocabulary.ts`; the unions here are derived from them.
 */

import type {
  ENGINES,
  FAILURE_REASONS,
  FRAMES,
  GATE_CODES,
  GREEDY_CLASSES,
  MANDATORY_FORMS,
  OVERHEAD_TOKENIZERS,
  PRICINGS,
  REQUIRED_MISSING_MODES,
  REQUIREMENT_CLASSES,
  TRACE_DECISIONS,
} from './compiler-vocabulary.js';

/** Requirement classes ("bands"), strongest first. */
export type RequirementClass = (typeof REQUIREMENT_CLASSES)[number];

/** The classes admitted greedily, by relevance, after the required ones. */
export type GreedyClass = (typeof GREEDY_CLASSES)[number];

/** What the trace says happened to one candidate. */
export type TraceDecision = (typeof TRACE_DECISIONS)[number];

/** The six named refusals. A refusal is a result, never an exception. */
export type FailureReason = (typeof FAILURE_REASONS)[number];

/** Result of the four hard gates; the first failing gate names the code. */
export type GateCode = (typeof GATE_CODES)[number];

/**
 * What the compiler does with REQUIRED content it cannot legally place.
 * - `omit`: the reference behaviour: content whose every form fails a gate is silently absent,
 *   and a required group split by `required_ids` promotion is admitted piecemeal.
 * - `refuse`: such content refuses (`REQUIRED_INELIGIBLE` / `NO_LEGAL_REPRESENTATION`), and a
 *   required group is admitted as one unit in the strongest class of any of its members.
 */
export type RequiredMissing = (typeof REQUIRED_MISSING_MODES)[number];

/** How MANDATORY and REQUIRED content takes its forms: see `MANDATORY_FORMS`. */
export type MandatoryForm = (typeof MANDATORY_FORMS)[number];

/** What admission charges: see `PRICINGS`. */
export type Pricing = (typeof PRICINGS)[number];

/** How the bundle is framed as text: see `FRAMES`. */
export type Frame = (typeof FRAMES)[number];

/** What prices the rendering overhead: see `OVERHEAD_TOKENIZERS`. */
export type OverheadTokenizer = (typeof OVERHEAD_TOKENIZERS)[number];

/** Which implementation of the greedy and repair stages runs (docs/compiler.md §18). */
export type Engine = (typeof ENGINES)[number];

/** One representation ("form") of one piece of content. */
export interface ContextCandidate {
  readonly schema_version: string;
  readonly candidate_id: string;
  /** Candidates sharing it are alternative forms of one content; at most one is admitted. */
  readonly content_identity: string;
  readonly representation_id: string;
  /** Convention: reference 0, anchor 1, compact 2, full 3. */
  readonly form_rank: number;
  /** The form floor: legal only if `form_rank >= min_rank`. */
  readonly min_rank: number;
  readonly source_kind: string;
  readonly source_ref: string;
  readonly kind: string;
  readonly content: string;
  /** Declared admission cost; never re-estimated. */
  readonly token_count: number;
  readonly token_source: string;
  readonly requirement: RequirementClass;
  readonly order_role: string;
  readonly scope_eligible: boolean;
  readonly scope_reason: string;
  readonly freshness_eligible: boolean;
  readonly freshness_reason: string;
  readonly authority_eligible: boolean;
  readonly authority_reason: string;
  readonly depends_on: readonly string[];
  readonly group_id: string | null;
  /** All-or-none only when `group_id` is non-empty and this is true. */
  readonly group_required: boolean;
  readonly coverage_keys: readonly string[];
  readonly relevance: number;
  readonly is_default_form: boolean;
}

export interface ContextRequest {
  readonly schema_version: string;
  readonly request_id: string;
  readonly task_id: string;
  readonly usable_token_budget: number;
  /** Supplied by the caller: the compiler never reads a clock. */
  readonly created_at: string;
  readonly active_scope: string;
  /** Candidate ids the task names explicitly; absence is a refusal. */
  readonly required_ids: readonly string[];
  readonly policy_version: string;
}

export interface CompilerPolicy {
  readonly schema_version: string;
  readonly policy_version: string;
  /** Strictly below this, a unit that adds no new coverage is rejected as adding nothing. */
  readonly min_discretionary_relevance: number;
  /** `cheapest` (the reference) or ctxbench's `planned`; anything else is refused at read and compile time. */
  readonly mandatory_form: MandatoryForm;
  readonly order_roles: readonly string[];
  /** `drop-last-discretionary`; any other string means no repair. */
  readonly repair: string;
  /** ctxbench's extension (absent from the reference record): see {@link RequiredMissing}. */
  readonly required_missing: RequiredMissing;
  /** ctxbench's extension (absent from the reference record): see {@link Pricing}. */
  readonly pricing: Pricing;
  /** ctxbench's extension (absent from the reference record): see {@link Frame}. */
  readonly frame: Frame;
  /**
   * ctxbench's extension, absent from the reference record: see {@link OverheadTokenizer}.
   * Absent means `estimate`, and the reader leaves it absent then, so a default policy is the
   * reference's record to the byte.
   */
  readonly overhead_tokenizer?: OverheadTokenizer;
}

export interface ContextItem {
  readonly schema_version: string;
  readonly id: string;
  readonly source: string;
  readonly kind: string;
  readonly content: string;
  readonly position: number;
  readonly token_count: number;
  readonly token_provenance: string;
  readonly authority: string | null;
  readonly scope: string | null;
  readonly observed_at: string | null;
  readonly semantic_id: string | null;
  readonly ref: string | null;
}

export interface ContextBundle {
  readonly schema_version: string;
  readonly id: string;
  readonly items: readonly ContextItem[];
  readonly created_at: string;
  /** Always equal to the item ids in item order. */
  readonly layout_trace: readonly string[];
  readonly evidence_class: string;
  readonly provenance: Readonly<Record<string, unknown>> | null;
}

export interface TraceEntry {
  readonly candidate_id: string;
  readonly content_identity: string;
  readonly representation_id: string;
  readonly decision: TraceDecision;
  readonly reason_code: string;
  readonly reason_detail: string;
  /** The effective band (after promotion). */
  readonly priority_band: string;
  readonly relevance: number;
  readonly marginal_cost: number;
  /** v2: the candidate's transitive dependencies in discovery order; v1: always empty. */
  readonly dependency_closure: readonly string[];
  /** v2: for a dependency admitted only because roots needed it, those roots (sorted). */
  readonly pulled_in_by: readonly string[];
  readonly budget_before: number;
  /** v2: lower than `budget_before` only for admissions; v1: always equal to it. */
  readonly budget_after: number;
  readonly position: number | null;
}

export interface DecisionTrace {
  /** v2 for everything the compiler writes; a v1 document read back stays v1 (legacy). */
  readonly schema_version: string;
  readonly request_id: string;
  readonly policy_version: string;
  /** Sorted by candidate id. */
  readonly entries: readonly TraceEntry[];
}

export interface CompileFailure {
  readonly schema_version: string;
  readonly request_id: string;
  readonly policy_version: string;
  readonly reason: FailureReason;
  /** Sorted, de-duplicated. Content identities or candidate ids, depending on the stage. */
  readonly blocking_ids: readonly string[];
  readonly budget_used: number;
  readonly budget_total: number;
  readonly diagnostic: string;
}

export interface CompilationResult {
  /** v2, or v1 exactly when its trace is a legacy v1 trace. */
  readonly schema_version: string;
  readonly request_id: string;
  readonly policy_version: string;
  readonly success: boolean;
  readonly bundle_id: string | null;
  readonly bundle_tokens: number | null;
  readonly bundle_hash: string | null;
  readonly trace: DecisionTrace;
  readonly failure: CompileFailure | null;
}

/** What `compileContext` returns: a bundle with its result, or a refusal (bundle null). */
export type CompileOutput =
  | {
      readonly bundle: ContextBundle;
      readonly result: CompilationResult & { readonly success: true; readonly failure: null };
    }
  | {
      readonly bundle: null;
      readonly result: CompilationResult & { readonly success: false; readonly failure: CompileFailure };
    };
