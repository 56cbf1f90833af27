/** Study: strategy discovery, strategies in processes of their own, compile sessions, the study (runStudy), a run folder validated by running it again. */

export { explainCandidate } from './explain-candidate.js';
export { Hosts } from './hosts.js';
export { PERMISSION_FLAG, readable } from './launch.js';
export { leastBudget } from './least.js';
export { inside } from './links.js';
export { compileAwaited } from './measure-answer.js';
export { infoOf, listStrategies, loadStrategies, pickStrategies } from './registry.js';
export { type Compiled, CompileSession, checkedInputs, compileCase } from './session.js';
export { parseShard } from './shard.js';
export { caseInputs, strategyInput } from './strategy-input.js';
export { runStudy } from './study.js';
export { type Asking, checkRunFolder, disagreementText } from './validate-run.js';
