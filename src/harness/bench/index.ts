/** Bench: tinybench timings of strategies, the study and generated pools, and comparison with a baseline. */
export {
  type BenchFile,
  type BenchRecord,
  type BenchTask,
  benchFile,
  type Comparison,
  compareBench,
  corpusTasks,
  MIN_SLOWDOWN,
  readBaseline,
  runBench,
  scaleTasks,
} from './bench.js';
