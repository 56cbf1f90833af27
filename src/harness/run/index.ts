/** Run: strategy discovery, the study matrix, one selection measured, worker threads and shards. */

export { caseInputs, type Inputs, strategyInput } from './input.js';
export { compileWith, errorCompiled, outcomeOf } from './measure.js';
export { type CompilationJSON, compilationJSON, compileOne } from './one.js';
export { type CellText, type ParallelOptions, runParallel, type WorkerSetup } from './parallel.js';
export { loadStrategies, pickStrategies, registryOrder, STRATEGIES_DIR } from './registry.js';
export {
  type Cell,
  type CellResult,
  cells,
  compilationOf,
  failedCell,
  rowOf,
  runCell,
  runStudy,
} from './runner.js';
export { parseShard, sliceOf } from './shard.js';
export { runSlice, type Slice, type Workers } from './slice.js';
