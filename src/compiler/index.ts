/**
 * The Context Compiler: a deterministic assembler of context bundles with hard gates,
 * requirement classes, priced dependency closure, all-or-none groups and named refusals.
 * Zero runtime dependencies beyond Node's built-in modules.
 */
export { dependencyClosure, walkClosure } from './closure.js';
export { type CompileOptions, checkCompilerInputs, compileContext, validateInputs } from './engine.js';
export type { GateVerdict } from './gates.js';
export { gate, requiredGroupOf, requiredGroups } from './gates.js';
export { bundleHash } from './hash.js';
export { defaultPolicy } from './policy.js';
export {
  byCandidateId,
  makeBundle,
  pyTruthy,
  type ReadOptions,
  RecordError,
  readBundle,
  readCandidate,
  readFailure,
  readItem,
  readPolicy,
  readRequest,
  readResult,
  readTrace,
  readTraceEntry,
  sortedUnique,
} from './read.js';
export {
  buildBundle,
  hashBundle,
  orderByRole,
  renderBundleText,
  renderedCost,
  renderedIncrement,
} from './render.js';
export { FAILURE_REASONS, REQUIREMENT_CLASSES, SCHEMA, TRACE_DECISIONS } from './schemas.js';
export {
  decorationCost,
  estimateTokens_APPROX,
  headerCost,
  itemRenderCost,
  roundHalfEven,
  SEPARATOR_COST,
} from './tokens.js';
export type {
  CompilationResult,
  CompileFailure,
  CompileOutput,
  CompilerPolicy,
  ContextBundle,
  ContextCandidate,
  ContextItem,
  ContextRequest,
  DecisionTrace,
  FailureReason,
  GateCode,
  RequiredMissing,
  RequirementClass,
  TraceDecision,
  TraceEntry,
} from './types.js';
export { validateBundle, validateResult } from './validate.js';
export {
  bundleToJSON,
  candidateToJSON,
  failureToJSON,
  isLegacyTrace,
  itemToJSON,
  policyToJSON,
  requestToJSON,
  resultToJSON,
  resultToV1JSON,
  traceToJSON,
  traceToV1JSON,
} from './write.js';
