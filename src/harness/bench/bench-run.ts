/**
 * `bench` apart from its printing: the strategies timed on a corpus and on generated pools, or
 * whole processes against their yardsticks; the file `--save` writes; and what a run says against
 * a baseline.
 */
import { ledgerDirFor, loadCorpus, loadLedger } from '../corpus/index.js';
import { UsageError } from '../errors.js';
import { DIGITS, fixed } from '../format.js';
import { loadStrategies } from '../hosts/index.js';
import type { ProgressSink } from '../output/index.js';
import type { Table } from '../report/index.js';
import {
  compareBench,
  comparisonSummary,
  comparisonTable,
  isRegression,
  recordsTable,
} from './bench-compare.js';
import { PROCESS_PAIRS, type ProcessPair, type ProcessRecord, runProcessPairs } from './bench-processes.js';
import { benchProgress } from './bench-progress.js';
import { type BenchFile, benchFile, corpusTasks, peersCost, runBench, scaleTasks } from './bench-tasks.js';

export interface StrategiesBench {
  readonly corpus: string;
  /** Names or groups; undefined for all. */
  readonly strategies: readonly string[] | undefined;
  readonly sizes: readonly number[];
  /** Milliseconds of samples per task. */
  readonly time: number;
  readonly version: string;
  /** Where the progress line goes, and whether it is kept quiet. */
  readonly progress: { readonly sink: ProgressSink; readonly quiet: boolean };
  /** A saved run to compare with, read before anything is timed. */
  readonly baseline: BenchFile | null;
}

/**
 * Every strategy on every case and on generated pools of each size, timed: the file `--save`
 * writes, and what it says (against the baseline, when there is one).
 */
export async function benchStrategies(
  o: StrategiesBench,
): Promise<{ readonly file: BenchFile; readonly verdict: BenchVerdict }> {
  const corpus = loadCorpus(o.corpus);
  const ledger = loadLedger(ledgerDirFor(corpus), corpus);
  // Timed where they run, in this process: bench trusts the strategies it measures.
  const strategies = await loadStrategies(o.strategies);
  const tasks = [...corpusTasks(corpus, ledger, strategies), ...scaleTasks(strategies, o.sizes)];
  const note = `(${o.time} ms of samples each)`;
  const progress = benchProgress(o.progress.sink, { quiet: o.progress.quiet, note });
  const records = await runBench(tasks, { time: o.time, warmup: Math.max(10, o.time / 5), progress });
  const file = benchFile(o.version, records, new Date().toISOString());
  return { file, verdict: benchVerdict(file, corpus.name, o.baseline) };
}

export interface ProcessesBench {
  /** `--processes`' names: pairs, or `all` for every one. */
  readonly names: readonly string[];
  /** Counted runs of each side. */
  readonly runs: number;
  /** Of the generated pools. */
  readonly seed: string;
  readonly version: string;
  readonly progress: { readonly sink: ProgressSink; readonly quiet: boolean };
  /** The tree `pack` is timed on; a copy of src/ and test/ when absent. */
  readonly tree?: string | undefined;
}

/** Whole processes against their yardsticks: the records, and the file `--save` writes. */
export function benchProcesses(o: ProcessesBench): {
  readonly records: readonly ProcessRecord[];
  readonly file: BenchFile & { readonly processes: readonly ProcessRecord[] };
} {
  const chosen = o.names.includes('all') ? [...PROCESS_PAIRS] : o.names;
  const unknown = chosen.find((n) => !(PROCESS_PAIRS as readonly string[]).includes(n));
  if (unknown !== undefined || chosen.length === 0)
    throw new UsageError(`--processes: ${unknown ?? '(none)'} is none of ${PROCESS_PAIRS.join(', ')}, all`);
  if (!Number.isInteger(o.runs) || o.runs < 1) throw new UsageError('--runs must be a whole number >= 1');
  const say = (line: string) => {
    if (!o.progress.quiet) o.progress.sink.err(`${line}\n`);
  };
  say(`seed ${o.seed}`);
  const records = runProcessPairs(chosen as ProcessPair[], { runs: o.runs, seed: o.seed, say, tree: o.tree });
  return { records, file: { ...benchFile(o.version, [], new Date().toISOString()), processes: records } };
}

/** What a strategies' bench says: its table, the lines after it, a line for each regression. */
export interface BenchVerdict {
  readonly table: Table;
  readonly note: string;
  readonly regressions: readonly string[];
}

/**
 * The timings alone, or with a baseline the comparison, its summary and every flagged
 * slow-down or changed outcome; and the whole study with the peers against without them.
 */
function benchVerdict(file: BenchFile, corpus: string, baseline: BenchFile | null): BenchVerdict {
  const cost = peersCost(file.tasks, corpus);
  const costNote =
    cost === null
      ? ''
      : `\nthe study with the peers against without them: ${fixed(cost.with_ms, DIGITS.ms)} ms / ` +
        `${fixed(cost.without_ms, DIGITS.ms)} ms = ${fixed(cost.ratio, DIGITS.factor)}x (medians)\n`;
  if (baseline === null) return { table: recordsTable(file.tasks), note: costNote, regressions: [] };
  const comparisons = compareBench(file.tasks, baseline.tasks);
  return {
    table: comparisonTable(comparisons),
    note: `\n${comparisonSummary(comparisons)}${costNote}`,
    regressions: comparisons
      .filter(isRegression)
      .map((c) => `ctxbench: regression: ${c.name}: ${c.detail}\n`),
  };
}
