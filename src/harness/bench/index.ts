/** Bench: tinybench timings of strategies, the study and generated pools, and comparison with a baseline. */

export { MIN_SLOWDOWN, MIN_SLOWDOWN_MS, SPREAD_FACTOR } from './bench-compare.js';
export { PROCESS_PAIRS, processTable } from './bench-processes.js';
export { benchProcesses, benchStrategies } from './bench-run.js';
export { readBaseline } from './bench-tasks.js';
