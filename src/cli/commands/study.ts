import path from 'node:path';
import { ledgerDirFor, loadCorpus, loadLedger } from '../../harness/corpus/index.js';
import { UsageError } from '../../harness/errors.js';
import { count } from '../../harness/format.js';
import { statsByStrategy } from '../../harness/metrics/index.js';
import { checkOut, guardOutput, progressLine } from '../../harness/output/index.js';
import { headlineTable } from '../../harness/report/index.js';
import { RUN_FILE, RUN_MARKS } from '../../harness/runfolder/index.js';
import { parseShard, pickStrategies, runStudy } from '../../harness/study/index.js';
import { STRATEGY_ERROR } from '../../harness/vocabulary.js';
import {
  corpusOption,
  defineCommand,
  formatOption,
  lintOf,
  memoryOf,
  memoryOption,
  quietTableOption,
  splitList,
  strictOption,
  tableOutput,
  timeoutOf,
  timeoutOption,
} from '../command.js';
import { EXIT } from '../io.js';
import { Stopped, shellLine, stoppable } from '../signals.js';
import { tokenizerOption, tokenizerSetting } from '../tokenizer.js';

/**
 * Run the matrix and write the run folder. Everything that can be wrong with the inputs is
 * found before anything is written; a strategy that fails becomes an error row and exit 1.
 */
export const study = defineCommand({
  examples: [
    ['$0 study', 'the reference study into runs/compiler-v1'],
    [
      '$0 study --strategies compiler,exact --jobs 2 --out runs/two',
      'two strategies, two compilations at once',
    ],
    ['$0 study --out runs/two --resume', 'finish a run that was stopped or killed'],
    [
      '$0 study --tokenizer o200k --out runs/o200k',
      `the overhead priced by o200k; the run records it in ${RUN_FILE.manifest}`,
    ],
  ],
  options: (y) =>
    y
      .option('corpus', corpusOption)
      .option('strategies', {
        type: 'string',
        describe: 'comma-separated names or groups: all, peers (default: all registered)',
      })
      .option('policy', { type: 'string', describe: "a policy file replacing the corpus's" })
      .option('tokenizer', tokenizerOption)
      .option('out', { type: 'string', describe: 'run folder (default runs/<corpus name>)' })
      .option('force', { type: 'boolean', default: false, describe: 'replace a non-empty --out' })
      .option('jobs', {
        type: 'number',
        default: 1,
        describe: 'compilations at once, each strategy in processes of its own (same bytes as one job)',
      })
      .option('timeout', timeoutOption)
      .option('memory', memoryOption)
      .option('shard', { type: 'string', describe: 'i/n: run only the i-th of n slices of the matrix' })
      .option('resume', {
        type: 'boolean',
        default: false,
        describe: 'continue a stopped or killed run into the same --out from its finished compilations',
      })
      .option('strict', strictOption)
      .option('format', formatOption)
      .option('quiet', quietTableOption),
  run: async (a, ctx) => {
    const { io } = ctx;
    const lint = lintOf(a.strict, io);
    const loaded = loadCorpus(a.corpus, a.policy, lint);
    const corpus = { ...loaded, policy: tokenizerSetting(a.tokenizer)(loaded.policy) };
    const ledgerDir = ledgerDirFor(corpus);
    const ledger = loadLedger(ledgerDir, corpus, lint);
    const strategies = pickStrategies(splitList(a.strategies));
    const out = a.out ?? path.join('runs', corpus.name);
    guardOutput({ path: out, kind: 'folder', option: '--out', inputs: [corpus.dir, ledgerDir, a.policy] });
    checkOut(out, a.force, RUN_MARKS);
    if (!Number.isInteger(a.jobs) || a.jobs < 1) throw new UsageError('--jobs must be a whole number >= 1');
    const timeout = timeoutOf(a.timeout);
    const memory = memoryOf(a.memory);
    const shard = a.shard === undefined ? undefined : parseShard(a.shard);
    const progress = progressLine(io, { quiet: a.quiet });
    const outcome = await stoppable((signal) =>
      runStudy({
        corpus,
        ledger,
        ledgerDir,
        where: { in: 'processes', strategies, timeout, memory },
        jobs: a.jobs,
        shard,
        onStart: (kept, total) => {
          if (a.resume) io.err(`ctxbench: resuming ${out}: ${kept} of ${count(total, 'compilation')} kept\n`);
        },
        folder: { dir: out, resume: a.resume, version: ctx.version(), command: ['ctxbench', ...ctx.argv] },
        onRow: (row, done, total) =>
          progress.update(`study ${done}/${total}: ${row.strategy} on ${row.case}/${row.budget}`),
        signal,
      }),
    );
    if (outcome.state === 'stopped') {
      const { reason, rows, total } = outcome;
      if (!(reason instanceof Stopped)) throw reason;
      const again = ctx.argv.includes('--resume') ? ctx.argv : [...ctx.argv, '--resume'];
      io.err(
        `ctxbench: ${reason.message} after ${rows.length} of ${count(total, 'compilation')}, kept in ${out}.partial; resume with: ${shellLine(['ctxbench', ...again])}\n`,
      );
      return EXIT[reason.signal];
    }
    const { rows } = outcome;
    progress.end(`study: ${count(rows.length, 'compilation')}`);
    const part = outcome.shard
      ? ` (shard ${outcome.shard.index}/${outcome.shard.count}: cells ${outcome.shard.from}..${outcome.shard.to - 1} of ${outcome.shard.total})`
      : '';
    const printed = tableOutput(io, a.format, a.quiet);
    printed.note(`${count(rows.length, 'compilation')} written to ${out}${part}\n\n`);
    printed.table(headlineTable(statsByStrategy(rows)));
    const failed = rows.filter((r) => r.reason === STRATEGY_ERROR);
    if (failed.length === 0) return EXIT.ok;
    io.err(`ctxbench: ${count(failed.length, 'error row')}:\n`);
    for (const r of failed) io.err(`  ${r.case}/${r.budget}/${r.strategy}: ${String(r.extras.error)}\n`);
    return EXIT.checkFailed;
  },
});
