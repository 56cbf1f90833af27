import {
  benchFile,
  compareBench,
  corpusTasks,
  readBaseline,
  runBench,
  scaleTasks,
} from '../../harness/bench/bench.js';
import { loadCorpus } from '../../harness/input/corpus.js';
import { UsageError } from '../../harness/input/errors.js';
import { ledgerDirFor, loadLedger } from '../../harness/input/ledger.js';
import { jsonText, writeFileAtomic } from '../../harness/output/files.js';
import { textTable } from '../../harness/report/table.js';
import { loadStrategies } from '../../harness/run/registry.js';
import { DEFAULTS, defineCommand, splitList } from '../command.js';
import { EXIT } from '../io.js';

const ms = (x: number) => (x >= 100 ? x.toFixed(0) : x >= 1 ? x.toFixed(2) : x.toFixed(4));

/** Time the strategies; with --baseline, exit 1 on a flagged slow-down or a changed outcome. */
export const bench = defineCommand({
  name: 'bench',
  describe: 'time every strategy on every case, the whole study and generated pools (tinybench)',
  options: (y) =>
    y
      .option('corpus', { type: 'string', default: DEFAULTS.corpus() })
      .option('strategies', { type: 'string', describe: 'comma-separated subset (default: all)' })
      .option('sizes', { type: 'string', default: '100,1000,10000', describe: 'generated pool sizes' })
      .option('time', { type: 'number', default: 200, describe: 'milliseconds of samples per task' })
      .option('save', { type: 'string', describe: 'write the results as JSON' })
      .option('baseline', {
        type: 'string',
        describe: 'compare with a saved run; exit 1 on a regression',
      }),
  run: async (a, ctx) => {
    const { io } = ctx;
    const sizes = (splitList(a.sizes) ?? []).map(Number);
    if (sizes.some((n) => !Number.isInteger(n) || n < 1))
      throw new UsageError('--sizes must be whole numbers');
    const baseline = a.baseline ? readBaseline(a.baseline) : null;
    const corpus = loadCorpus(a.corpus);
    const ledger = loadLedger(ledgerDirFor(corpus), corpus);
    // Timed where they run, in this process: bench trusts the strategies it measures.
    const strategies = await loadStrategies(splitList(a.strategies));
    const tasks = [...corpusTasks(corpus, ledger, strategies), ...scaleTasks(strategies, sizes)];
    io.err(`benchmarking ${tasks.length} tasks (${a.time} ms each, after a warm-up)\n`);
    const records = await runBench(tasks, { time: a.time, warmup: Math.max(10, a.time / 5) });
    const file = benchFile(ctx.version(), records, new Date().toISOString());
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
  },
});
