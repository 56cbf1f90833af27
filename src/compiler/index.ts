/**
 * The Context Compiler: a deterministic assembler of context bundles with hard gates,
 * requirement classes, priced dependency closure, all-or-none groups and named refusals
 * (docs/compiler.md). Zero runtime dependencies beyond Node's built-in modules. Every public
 * name is listed here; nothing else is part of the API.
 */
export { promotedClass, strongerClass } from './classes.js';
export { dependencyClosure, walkClosure } from './closure.js';
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
  Engine,
  FailureReason,
  Frame,
  GateCode,
  GreedyClass,
  MandatoryForm,
  OverheadTokenizer,
  Pricing,
  RequiredMissing,
  RequirementClass,
  TraceDecision,
  TraceEntry,
} from './compiler-types.js';
export {
  ENGINES,
  FAILURE_REASONS,
  FRAMES,
  GATE_CODES,
  GREEDY_CLASSES,
  MANDATORY_FORMS,
  OVERHEAD_TOKENIZERS,
  PRICINGS,
  REAL_TOKENIZERS,
  REQUIRED_MISSING_MODES,
  REQUIREMENT_CLASSES,
  SCHEMA,
  TRACE_DECISIONS,
} from './compiler-vocabulary.js';
export { type CompileOptions, compileContext } from './engine.js';
export { type FrameV2Reading, frameV2, frameV2Tag, notOneLine, readFrameV2 } from './frame.js';
export { type GateVerdict, gate } from './gates.js';
export { requiredGroupOf, requiredGroups } from './groups.js';
export { bundleHash } from './hash.js';
export { checkCompilerInputs, validateInputs } from './inputs.js';
export { coerceNumber, isPlainObject, pyTruthy, quote, RecordError } from './json.js';
export { byCandidateId, orderByRole, sortedUnique } from './order.js';
export { defaultPolicy } from './policy.js';
export { readCandidate, readPolicy, readRequest } from './read.js';
export {
  makeBundle,
  type ReadOptions,
  readBundle,
  readFailure,
  readItem,
  readResult,
  readTrace,
  readTraceEntry,
} from './read-results.js';
export {
  buildBundle,
  bundleItem,
  frameTag,
  hashBundle,
  renderBundleText,
  renderedCost,
  renderedIncrement,
} from './render.js';
export {
  type BundleResult,
  bundleResult,
  type RefusalFacts,
  type RefusedResult,
  refusedResult,
} from './result.js';
export type { StageRefusal } from './stages/refusal.js';
export { missingSources } from './stages/sources.js';
export {
  decorationCost,
  estimateTokens_APPROX,
  headerCost,
  itemRenderCost,
  overheadCounter,
  type RealTokenizer,
  registerTokenCounter,
  roundHalfEven,
  separatorCost,
  type TokenCounter,
} from './tokens.js';
export { type Decision, makeTrace, traceEntry } from './trace-entry.js';
export { validateBundle, validateResult } from './validate-output.js';
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
