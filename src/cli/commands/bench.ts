import {
  benchProcesses,
  benchStrategies,
  MIN_SLOWDOWN,
  MIN_SLOWDOWN_MS,
  PROCESS_PAIRS,
  processTable,
  readBaseline,
  SPREAD_FACTOR,
} from '../../harness/bench/index.js';
import { UsageError } from '../../harness/errors.js';
import { guardOutput, jsonText, writeFileAtomic } from '../../harness/output/index.js';
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
        describe: `instead of the strategies: whole processes against a yardstick timed beside them (ctxbench --help, a bare JSON.parse, repomix), comma-separated from ${PROCESS_PAIRS.join(', ')}, or all`,
      })
      .option('runs', { type: 'number', default: 3, describe: 'with --processes: counted runs of each side' })
      .option('tree', { type: 'string', describe: 'with --processes pack,pack-warm: the tree to pack' })
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
    const progress = { sink: io, quiet: a.quiet };
    if (a.processes !== undefined) {
      const names = splitList(a.processes) ?? [];
      const o = { names, runs: a.runs, seed: a.seed, version: ctx.version(), progress, tree: a.tree };
      const { records, file } = benchProcesses(o);
      if (a.save) writeFileAtomic(a.save, jsonText(file));
      tableOutput(io, a.format, a.quiet).table(processTable(records));
      return EXIT.ok;
    }
    const { file, verdict } = await benchStrategies({
      baseline: a.baseline ? readBaseline(a.baseline) : null,
      corpus: a.corpus,
      strategies: splitList(a.strategies),
      sizes,
      time: a.time,
      version: ctx.version(),
      progress,
    });
    if (a.save) writeFileAtomic(a.save, jsonText(file));
    const out = tableOutput(io, a.format, a.quiet);
    out.table(verdict.table);
    if (verdict.note) out.note(verdict.note);
    for (const line of verdict.regressions) io.err(line);
    return verdict.regressions.length === 0 ? EXIT.ok : EXIT.checkFailed;
  },
});
