/** Checks: golden conformance, verify against the published run, structural diffs, two runs compared. */
export {
  anythingChanged,
  type Change,
  type Comparison,
  compareRuns,
  DEFAULT_SEED,
  type Side,
  type StrategyDelta,
  strategyPair,
  type Value,
} from './compare.js';
export { comparisonPage, strategiesPage } from './compare-page.js';
export { checkCompilation, problemText } from './compilation.js';
export { runConformance } from './conformance.js';
export { validateDocumentAwaited } from './document.js';
export { derivedExtrasAwaited, extrasVerdict } from './extras.js';
export { type CorpusFacts, type RunFolder, readRunFolder } from './read-run.js';
export { differences, rememberCompilerRun } from './rederive.js';
export { verifyRun } from './verify.js';
