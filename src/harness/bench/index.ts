/** Bench: tinybench timings of strategies, the study and generated pools, and comparison with a baseline. */
export {
  type BenchFile,
  type BenchRecord,
  type BenchTask,
  benchFile,
  corpusTasks,
  readBaseline,
  runBench,
  scaleTasks,
} from './bench.js';
export {
  type Comparison,
  compareBench,
  comparisonSummary,
  comparisonTable,
  isRegression,
  MIN_SLOWDOWN,
  MIN_SLOWDOWN_MS,
  type Presence,
  recordsTable,
  SPREAD_FACTOR,
} from './compare.js';
export { type BenchProgress, benchProgress } from './progress.js';
