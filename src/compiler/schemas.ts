/** Frozen schema identity strings (spec/compiler.md section 2). Language-independent. */
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

export const REQUIREMENT_CLASSES = ['MANDATORY', 'REQUIRED', 'PREFERRED', 'DISCRETIONARY'] as const;
export const TRACE_DECISIONS = [
  'ADMITTED',
  'REJECTED_HARD',
  'REJECTED_BUDGET',
  'REJECTED_REDUNDANT',
  'REJECTED_ALTERNATIVE',
  'REJECTED_DEPENDENCY',
] as const;
export const FAILURE_REASONS = [
  'INSUFFICIENT_BUDGET',
  'UNSATISFIED_DEPENDENCY',
  'NO_LEGAL_REPRESENTATION',
  'UNRESOLVED_REQUIRED_GROUP',
  'REQUIRED_SOURCE_UNAVAILABLE',
  'REQUIRED_INELIGIBLE',
] as const;
