/** Run: strategy discovery, the study matrix, strategies in processes of their own, one selection measured, shards. */

export { type Answer, assembleGuarded, deepFreeze, EXTRAS_CAP, SELECTION_CAP } from './guard.js';
export { Hosts } from './hosts.js';
export { caseInputs, type Inputs, strategyInput } from './input.js';
export { compileAnswer, compileWith, errorCompiled, outcomeOf } from './measure.js';
export { type CompilationJSON, compilationJSON, compileHosted, compileOne } from './one.js';
export {
  infoOf,
  listStrategies,
  loadStrategies,
  loadStrategyFile,
  pickStrategies,
  registryOrder,
  STRATEGIES_DIR,
} from './registry.js';
export {
  type Cell,
  type CellResult,
  cells,
  compilationOf,
  finishCell,
  rowOf,
  runCell,
  runStudy,
} from './runner.js';
export { parseShard, sliceOf } from './shard.js';
export { runSlice, type Slice, type SliceOptions } from './slice.js';
