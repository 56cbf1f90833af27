/** Run: strategy discovery, the study (runStudy), compile sessions, strategies in processes of their own, one selection measured, shards. */
export { type Asking, checkRunFolder, disagreementText } from './check-run.js';
export { type Compiled, CompileSession, checkedInputs, compileCase } from './compile.js';
export { explainCandidate } from './explain.js';
export { Hosts } from './hosts.js';
export { caseInputs, strategyInput } from './input.js';
export { PERMISSION_FLAG, readable } from './launch.js';
export { leastBudget } from './least.js';
export { inside } from './links.js';
export { compileAwaited } from './measure.js';
export { infoOf, listStrategies, loadStrategies, pickStrategies } from './registry.js';
export { parseShard } from './shard.js';
export { runStudy } from './study.js';
