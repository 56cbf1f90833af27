import { benchFile, corpusTasks, readBaseline, runBench, scaleTasks } from '../../harness/bench/bench.js';
import {
  compareBench,
  comparisonText,
  isRegression,
  MIN_SLOWDOWN,
  MIN_SLOWDOWN_MS,
  ms,
  SPREAD_FACTOR,
} from '../../harness/bench/compare.js';
import { benchProgress } from '../../harness/bench/progress.js';
import { loadCorpus } from '../../harness/input/corpus.js';
import { UsageError } from '../../harness/input/errors.js';
import { ledgerDirFor, loadLedger } from '../../harness/input/ledger.js';
import { jsonText, writeFileAtomic } from '../../harness/output/files.js';
import { textTable } from '../../harness/report/table.js';
import { loadStrategies } from '../../harness/run/registry.js';
import { corpusOption, defineCommand, splitList } from '../command.js';
import { EXIT } from '../io.js';

/** Time the strategies; with --baseline, exit 1 on a flagged slow-down or a changed outcome. */
export const bench = defineCommand({
  examples: [
    ['$0 bench --save runs/bench.json', 'time everything and keep the figures'],
    [
      '$0 bench --baseline runs/bench.json --sizes 100,1000',
      'compare with them; exit 1 on a slow-down or a changed outcome',
    ],
  ],
  options: (y) =>
    y
      .option('corpus', corpusOption)
      .option('strategies', { type: 'string', describe: 'comma-separated subset (default: all)' })
      .option('sizes', { type: 'string', default: '100,1000,10000', describe: 'generated pool sizes' })
      .option('time', { type: 'number', default: 200, describe: 'milliseconds of samples per task' })
      .option('save', { type: 'string', describe: 'write the results as JSON' })
      .option('baseline', {
        type: 'string',
        describe: `compare with a saved run; exit 1 on a changed outcome or a slow-down beyond ${MIN_SLOWDOWN * 100}%, ${SPREAD_FACTOR} x both runs' spread and ${MIN_SLOWDOWN_MS} ms`,
      })
      .option('quiet', {
        type: 'boolean',
        default: false,
        describe: 'no progress on stderr (by default one updating line on a terminal, else a final line)',
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
    const progress = benchProgress(io, { quiet: a.quiet, note: `(${a.time} ms of samples each)` });
    const records = await runBench(tasks, { time: a.time, warmup: Math.max(10, a.time / 5), progress });
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
    io.out(comparisonText(comparisons));
    const flagged = comparisons.filter(isRegression);
    for (const c of flagged) io.err(`ctxbench: regression: ${c.name}: ${c.detail}\n`);
    return flagged.length === 0 ? EXIT.ok : EXIT.checkFailed;
  },
});
