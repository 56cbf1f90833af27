import {
  benchFile,
  benchProgress,
  compareBench,
  comparisonSummary,
  comparisonTable,
  corpusTasks,
  isRegression,
  MIN_SLOWDOWN,
  MIN_SLOWDOWN_MS,
  PROCESS_PAIRS,
  type ProcessPair,
  peersCost,
  processTable,
  readBaseline,
  recordsTable,
  runBench,
  runProcessPairs,
  SPREAD_FACTOR,
  scaleTasks,
} from '../../harness/bench/index.js';
import { ledgerDirFor, loadCorpus, loadLedger } from '../../harness/corpus/index.js';
import { UsageError } from '../../harness/errors.js';
import { DIGITS, fixed } from '../../harness/format.js';
import { guardOutput, jsonText, writeFileAtomic } from '../../harness/output/index.js';
import { loadStrategies } from '../../harness/study/index.js';
import {
  corpusOption,
  defineCommand,
  formatOption,
  quietTableOption,
  splitList,
  tableOutput,
} from '../command.js';
import { EXIT } from '../io.js';

/** Time the strategies; with --baseline, exit 1 on a flagged slow-down or a changed outcome. */
export const bench = defineCommand({
  examples: [
    ['$0 bench --save runs/bench.json', 'time everything and keep the figures'],
    [
      '$0 bench --baseline runs/bench.json --sizes 100,1000',
      'compare with them; exit 1 on a slow-down or a changed outcome',
    ],
    [
      '$0 bench --processes study6,compile100k',
      'whole processes against their yardsticks, side by side (the ratios of issue 22)',
    ],
    [
      '$0 bench --sizes 100 --format csv --quiet > bench.csv',
      'the timings alone as CSV, milliseconds as plain numbers',
    ],
  ],
  options: (y) =>
    y
      .option('corpus', corpusOption)
      .option('strategies', {
        type: 'string',
        describe: 'comma-separated names or groups: all, peers (default: all)',
      })
      .option('sizes', { type: 'string', default: '100,1000,10000', describe: 'generated pool sizes' })
      .option('time', { type: 'number', default: 200, describe: 'milliseconds of samples per task' })
      .option('save', { type: 'string', describe: 'write the results as JSON' })
      .option('baseline', {
        type: 'string',
        describe: `compare with a saved run; exit 1 on a changed outcome or a slow-down beyond ${MIN_SLOWDOWN * 100}%, ${SPREAD_FACTOR} x both runs' spread and ${MIN_SLOWDOWN_MS} ms`,
      })
      .option('processes', {
        type: 'string',
        describe: `instead of the strategies: whole processes against a yardstick timed beside them (ctxbench --help, a bare JSON.parse), comma-separated from ${PROCESS_PAIRS.join(', ')}, or all`,
      })
      .option('runs', { type: 'number', default: 3, describe: 'with --processes: counted runs of each side' })
      .option('seed', {
        type: 'string',
        default: 'bench',
        describe: 'with --processes: the seed of the generated pools',
      })
      .option('format', formatOption)
      .option('quiet', quietTableOption),
  run: async (a, ctx) => {
    const { io } = ctx;
    const sizes = (splitList(a.sizes) ?? []).map(Number);
    if (sizes.some((n) => !Number.isInteger(n) || n < 1))
      throw new UsageError('--sizes must be whole numbers');
    if (a.save) guardOutput({ path: a.save, kind: 'file', option: '--save', inputs: [a.baseline, a.corpus] });
    if (a.processes !== undefined) {
      const chosen = splitList(a.processes) ?? [];
      const names = chosen.includes('all') ? [...PROCESS_PAIRS] : chosen;
      const unknown = names.find((n) => !(PROCESS_PAIRS as readonly string[]).includes(n));
      if (unknown !== undefined || names.length === 0)
        throw new UsageError(
          `--processes: ${unknown ?? '(none)'} is none of ${PROCESS_PAIRS.join(', ')}, all`,
        );
      if (!Number.isInteger(a.runs) || a.runs < 1) throw new UsageError('--runs must be a whole number >= 1');
      const say = (line: string) => {
        if (!a.quiet) io.err(`${line}\n`);
      };
      say(`seed ${a.seed}`);
      const records = runProcessPairs(names as ProcessPair[], { runs: a.runs, seed: a.seed, say });
      if (a.save)
        writeFileAtomic(
          a.save,
          jsonText({ ...benchFile(ctx.version(), [], new Date().toISOString()), processes: records }),
        );
      tableOutput(io, a.format, a.quiet).table(processTable(records));
      return EXIT.ok;
    }
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
    const out = tableOutput(io, a.format, a.quiet);
    const cost = peersCost(records, corpus.name);
    const costNote =
      cost === null
        ? ''
        : `\nthe study with the peers against without them: ${fixed(cost.with_ms, DIGITS.ms)} ms / ` +
          `${fixed(cost.without_ms, DIGITS.ms)} ms = ${fixed(cost.ratio, DIGITS.factor)}x (medians)\n`;
    if (baseline === null) {
      out.table(recordsTable(records));
      if (costNote) out.note(costNote);
      return EXIT.ok;
    }
    const comparisons = compareBench(records, baseline.tasks);
    out.table(comparisonTable(comparisons));
    out.note(`\n${comparisonSummary(comparisons)}${costNote}`);
    const flagged = comparisons.filter(isRegression);
    for (const c of flagged) io.err(`ctxbench: regression: ${c.name}: ${c.detail}\n`);
    return flagged.length === 0 ? EXIT.ok : EXIT.checkFailed;
  },
});
