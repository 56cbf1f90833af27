/** Run: strategy discovery, the study matrix, strategies in processes of their own, one selection measured, shards. */
export { Hosts } from './hosts.js';
export { caseInputs, type Inputs, strategyInput } from './input.js';
export { compileWith } from './measure.js';
export { type CompilationJSON, compileHosted, compileOne, compileStrategy } from './one.js';
export { infoOf, listStrategies, loadStrategies, pickStrategies } from './registry.js';
export { parseShard } from './shard.js';
export { runStudy } from './study.js';
