/** Study: strategy discovery, strategies in processes of their own, compile sessions, the study (runStudy), a run folder validated by running it again. */

export { compiledJSON, compiledSummary, invalidLines } from './compiled-text.js';
export { explainCandidate } from './explain-candidate.js';
export { Hosts, processCount } from './hosts.js';
export { PERMISSION_FLAG, readable } from './launch.js';
export { leastBudget } from './least.js';
export { inside } from './links.js';
export { compileAwaited } from './measure-answer.js';
export { infoOf, listStrategies, loadStrategies, pickStrategies } from './registry.js';
export {
  type Compiled,
  type CompileOptions,
  CompileSession,
  checkedInputs,
  compileCase,
  withSession,
} from './session.js';
export { caseInputs, strategyInput } from './strategy-input.js';
export { runStudy } from './study.js';
export { finishedText, plannedStudy, stoppedLine } from './study-folder.js';
export { checkRunFolder, runCheckText } from './validate-run.js';
export { WARM_KEEP, WarmHosts } from './warm-hosts.js';
