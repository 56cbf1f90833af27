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
} from './compare.js';
export {
  PROCESS_PAIRS,
  type ProcessPair,
  processTable,
  runProcessPairs,
} from './processes.js';
export { benchProgress } from './progress.js';
