/** Checks: golden conformance, verify against the published run, structural diffs, two runs compared. */

export {
  anythingChanged,
  type Change,
  type ChangedCompilation,
  type Comparison,
  compareRuns,
  type Headline,
  type StrategyDelta,
} from './compare.js';
export { type CheckInputs, checkCompilation, type Problem, type StoredCompilation } from './compilation.js';
export { type ConformanceDetail, type ConformanceReport, runConformance } from './conformance.js';
export { firstDifference } from './diff.js';
export { type CorpusFacts, type RunFolder, readRunFolder } from './read-run.js';
export { type Verification, verifyRows, verifyRun } from './verify.js';
