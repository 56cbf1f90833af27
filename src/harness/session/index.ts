/** Session: one strategy opened for compilations (`compile`, `explain`, `pack`, MCP), what a compilation prints, and the least budget that gives a bundle. */

export {
  type Compiled,
  type CompileOptions,
  CompileSession,
  checkedInputs,
  compileCase,
  withSession,
} from './compile-session.js';
export { compiledJSON, compiledSummary, invalidLines, withinOf } from './compiled-text.js';
export { explainCandidate } from './explain-candidate.js';
export { leastBudget } from './least-budget.js';
export { compileAnswer, compileAwaited, errorCompiled, rowOutcome } from './measure-answer.js';
