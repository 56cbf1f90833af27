import {
  type BenchFile,
  benchFile,
  compareBench,
  corpusTasks,
  runBench,
  scaleTasks,
} from '../harness/bench.js';
import { loadCorpus } from '../harness/corpus.js';
import { InputError, UsageError } from '../harness/errors.js';
import { jsonText, readJsonFile, writeFileAtomic } from '../harness/files.js';
import { ledgerDirFor, loadLedger } from '../harness/ledger.js';
import { pickStrategies } from '../harness/registry.js';
import { textTable } from '../harness/table.js';
import { EXIT, type ExitCode, type Io } from './io.js';
import { splitList } from './study.js';

export interface BenchArgs {
  readonly corpus: string;
  readonly strategies?: string | undefined;
  readonly sizes: string;
  readonly save?: string | undefined;
  readonly baseline?: string | undefined;
  readonly time: number;
  readonly version: string;
}

const ms = (x: number) => (x >= 100 ? x.toFixed(0) : x >= 1 ? x.toFixed(2) : x.toFixed(4));

function readBaseline(file: string): BenchFile {
  const b = readJsonFile(file) as BenchFile | null;
  if (!b || !Array.isArray(b.tasks)) throw new InputError(file, 'not a ctxbench bench file (no "tasks")');
  return b;
}

/** Time the strategies; with --baseline, exit 1 on a flagged slow-down or a changed outcome. */
export async function benchCommand(a: BenchArgs, io: Io): Promise<ExitCode> {
  const sizes = (splitList(a.sizes) ?? []).map(Number);
  if (sizes.some((n) => !Number.isInteger(n) || n < 1)) throw new UsageError('--sizes must be whole numbers');
  const baseline = a.baseline ? readBaseline(a.baseline) : null;
  const corpus = loadCorpus(a.corpus);
  const ledger = loadLedger(ledgerDirFor(corpus), corpus);
  const strategies = await pickStrategies(splitList(a.strategies));
  const tasks = [...corpusTasks(corpus, ledger, strategies), ...scaleTasks(strategies, sizes)];
  io.err(`benchmarking ${tasks.length} tasks (${a.time} ms each, after a warm-up)\n`);
  const records = await runBench(tasks, { time: a.time, warmup: Math.max(10, a.time / 5) });
  const file = benchFile(a.version, records, new Date().toISOString());
  if (a.save) writeFileAtomic(a.save, jsonText(file));
  if (baseline === null) {
    io.out(
      textTable(
        ['task', 'median ms', 'mad ms', 'samples', 'outcome'],
        records.map((r) => [
          r.name,
          ms(r.median_ms),
          ms(r.mad_ms),
          String(r.samples),
          r.outcome.slice(0, 24),
        ]),
        ['left', 'right', 'right', 'right', 'left'],
      ),
    );
    return EXIT.ok;
  }
  const comparisons = compareBench(records, baseline.tasks);
  io.out(
    textTable(
      ['task', 'ratio', 'flag above', 'verdict'],
      comparisons.map((c) => [
        c.name,
        c.ratio === null ? '-' : c.ratio.toFixed(2),
        c.threshold === null ? '-' : c.threshold.toFixed(2),
        c.changed ? 'OUTCOME CHANGED' : c.slower ? 'SLOWER' : c.detail || 'ok',
      ]),
      ['left', 'right', 'right', 'left'],
    ),
  );
  const flagged = comparisons.filter((c) => c.slower || c.changed);
  for (const c of flagged) io.err(`ctxbench: regression: ${c.name}: ${c.detail}\n`);
  return flagged.length === 0 ? EXIT.ok : EXIT.checkFailed;
}
