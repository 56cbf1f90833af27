/** Kit: the only thing a strategy imports (no loaders, no file system, no ledger code). */
// The plug-in types, the shared ruler, the baselines' moves, trace builders, and the compiler
// pieces a strategy may use. A strategy sees the ledger only as its input, and only when it
// declares `readsLedger`.
export {
  byCandidateId,
  type CompileOutput,
  type ContextCandidate,
  compileContext,
  dependencyClosure,
  type FailureReason,
  gate,
  headerCost,
  itemRenderCost,
  missingSources,
  orderByRole,
  promotedClass,
  REQUIRED_MISSING_MODES,
  type RequiredMissing,
  type RequirementClass,
  renderedCost,
  renderedIncrement,
  requiredGroupOf,
  requiredGroups,
  separatorCost,
  type TraceEntry,
  walkClosure,
} from '../../compiler/index.js';
export type {
  Admission,
  Annotations,
  CaseLedger,
  EvalClass,
  IdentityTruth,
  Refusal,
  Selection,
  Strategy,
  StrategyInput,
} from '../types.js';
export { baselineAnswer, defaultFormPool, greedyFill, rankBy } from './baselines.js';
export { selectionOf } from './compiler.js';
export { costOf, eligible } from './ruler.js';
export { baselineTrace, selectionTrace, type Why } from './trace.js';
