/**
 * The compiler's vocabulary, each word list written once: the const arrays here are the runtime
 * values, and `types.ts` derives every union type from them. Language-independent strings,
 * frozen by the records they appear in (docs/compiler.md §2).
 */

/** Schema identity strings of the records. */
export const SCHEMA = {
  candidate: 'project_context.context_candidate.v1',
  request: 'project_context.context_request.v1',
  policy: 'project_context.compiler_policy.v1',
  item: 'project_context.context_item.v1',
  bundle: 'project_context.context_bundle.v1',
  failure: 'project_context.compile_failure.v1',
  traceV2: 'project_context.decision_trace.v2',
  traceV1: 'project_context.decision_trace.v1',
  resultV2: 'project_context.compilation_result.v2',
  resultV1: 'project_context.compilation_result.v1',
} as const;

/** Requirement classes ("bands"), strongest first: the index is the strength (docs/compiler.md §6). */
export const REQUIREMENT_CLASSES = ['MANDATORY', 'REQUIRED', 'PREFERRED', 'DISCRETIONARY'] as const;

/** The classes the greedy stage admits, in the order it admits them (docs/compiler.md §10.6). */
export const GREEDY_CLASSES = ['PREFERRED', 'DISCRETIONARY'] as const;

/** What a trace entry says happened to a candidate (docs/compiler.md §8.4, §8.5). */
export const TRACE_DECISIONS = [
  'ADMITTED',
  /** Failed a hard gate; terminal. */
  'REJECTED_HARD',
  /** Did not fit, or dropped by render repair. */
  'REJECTED_BUDGET',
  /** Below the relevance threshold and adds no coverage. */
  'REJECTED_REDUNDANT',
  /** Another form of the same content was admitted. */
  'REJECTED_ALTERNATIVE',
  /** A dependency is ineligible or collides with admitted content. */
  'REJECTED_DEPENDENCY',
] as const;

/** The six named refusals (docs/compiler.md §12). A refusal is a result, never an exception. */
export const FAILURE_REASONS = [
  'INSUFFICIENT_BUDGET',
  'UNSATISFIED_DEPENDENCY',
  'NO_LEGAL_REPRESENTATION',
  'UNRESOLVED_REQUIRED_GROUP',
  'REQUIRED_SOURCE_UNAVAILABLE',
  'REQUIRED_INELIGIBLE',
] as const;

/** The verdict of the four hard gates, in gate order; the first failure names it (docs/compiler.md §5). */
export const GATE_CODES = [
  'scope_ineligible',
  'freshness_ineligible',
  'authority_ineligible',
  'illegal_representation',
  'eligible',
] as const;

/**
 * What the compiler does with REQUIRED content it cannot legally place (docs/compiler.md §17.3):
 * `omit` is the reference, `refuse` is ctxbench's extension.
 */
export const REQUIRED_MISSING_MODES = ['omit', 'refuse'] as const;

/**
 * How MANDATORY and REQUIRED content takes its forms (docs/compiler.md §7, §17.5): `cheapest` is
 * the reference (each content in turn, the form cheapest at that moment, no fallback); `planned`
 * is ctxbench's (the forms of all of them chosen together, then moved to cheaper forms).
 */
export const MANDATORY_FORMS = ['cheapest', 'planned'] as const;

/**
 * What admission charges (docs/compiler.md §8.2, §17.5): `declared` is the reference (declared
 * counts only; decorations, separators and the frame appear at render); `rendered` is ctxbench's
 * (each admission at what it adds to the rendered bundle, so admission never overshoots).
 */
export const PRICINGS = ['declared', 'rendered'] as const;

/**
 * How the bundle is rendered as text (docs/compiler.md §13, §17.6): `v1` is the reference's frame,
 * which a content holding a line `---` or `[/CONTEXT BUNDLE]` can forge; `v2` is ctxbench's, whose
 * delimiters carry a tag derived from the bundle hash, so no content can contain them.
 */
export const FRAMES = ['v1', 'v2'] as const;

/** The real BPE tokenizers a policy may name, which a caller registers (`registerTokenCounter`). */
export const REAL_TOKENIZERS = ['o200k', 'cl100k'] as const;

/**
 * What prices the text the engine adds: header, decorations, separators (docs/compiler.md §3,
 * §17.7). `estimate` is the reference's word count; the others name real BPE tokenizers, which
 * the compiler does not ship: a caller registers them (`registerTokenCounter`) before compiling.
 */
export const OVERHEAD_TOKENIZERS = ['estimate', ...REAL_TOKENIZERS] as const;

/** The two implementations of the greedy and repair stages (docs/compiler.md §18). */
export const ENGINES = ['fast', 'reference'] as const;

export const DEFAULT_POLICY_VERSION = 'compiler-policy-v1';
export const DEFAULT_ORDER_ROLES: readonly string[] = [
  'instruction',
  'task',
  'state',
  'evidence',
  'support',
  'tool',
];
export const REPAIR_DROP_LAST_DISCRETIONARY = 'drop-last-discretionary';
