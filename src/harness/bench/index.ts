/** Bench: tinybench timings of strategies, the study and generated pools, and comparison with a baseline. */

export { benchFile, corpusTasks, peersCost, readBaseline, runBench, scaleTasks } from './bench.js';
export {
  compareBench,
  comparisonSummary,
  comparisonTable,
  isRegression,
  MIN_SLOWDOWN,
  MIN_SLOWDOWN_MS,
  recordsTable,
  SPREAD_FACTOR,
} from './bench-compare.js';
export { PROCESS_PAIRS, type ProcessPair, processTable, runProcessPairs } from './bench-processes.js';
export { benchProgress } from './bench-progress.js';
