import path from 'node:path';
import { loadCorpus } from '../../harness/input/corpus.js';
import { UsageError } from '../../harness/input/errors.js';
import { ledgerDirFor, loadLedger } from '../../harness/input/ledger.js';
import { checkOut } from '../../harness/output/folder.js';
import { RUN_MARKS, RunWriter, reportTitle } from '../../harness/output/run-folder.js';
import { reportMarkdown } from '../../harness/report/markdown.js';
import { pickStrategies } from '../../harness/run/registry.js';
import { cells } from '../../harness/run/runner.js';
import { parseShard, sliceOf } from '../../harness/run/shard.js';
import { runSlice } from '../../harness/run/slice.js';
import type { CompilationLine, Row } from '../../harness/types.js';
import { STRATEGY_ERROR } from '../../harness/vocabulary.js';
import { DEFAULTS, defineCommand, splitList, timeoutOf, timeoutOption } from '../command.js';
import { EXIT } from '../io.js';

/** The headline table of a report, for the terminal. */
const headline = (report: string): string => {
  const start = report.indexOf('## Headline');
  const end = report.indexOf('\n## ', start + 1);
  return report.slice(start, end < 0 ? undefined : end).trimEnd();
};

/**
 * Run the matrix and write the run folder. Everything that can be wrong with the inputs is
 * found before anything is written; a strategy that fails becomes an error row and exit 1.
 */
export const study = defineCommand({
  name: 'study',
  describe: 'run every case x budget x strategy, score against the ledger, write a run folder',
  options: (y) =>
    y
      .option('corpus', { type: 'string', default: DEFAULTS.corpus(), describe: 'corpus folder' })
      .option('strategies', {
        type: 'string',
        describe: 'comma-separated subset (default: all registered)',
      })
      .option('policy', { type: 'string', describe: "a policy file replacing the corpus's" })
      .option('out', { type: 'string', describe: 'run folder (default runs/<corpus name>)' })
      .option('force', { type: 'boolean', default: false, describe: 'replace a non-empty --out' })
      .option('jobs', {
        type: 'number',
        default: 1,
        describe: 'compilations at once, each strategy in processes of its own (same bytes as one job)',
      })
      .option('timeout', timeoutOption)
      .option('shard', { type: 'string', describe: 'i/n: run only the i-th of n slices of the matrix' }),
  run: async (a, ctx) => {
    const { io } = ctx;
    const corpus = loadCorpus(a.corpus, a.policy);
    const ledger = loadLedger(ledgerDirFor(corpus), corpus);
    const strategies = await pickStrategies(splitList(a.strategies));
    const out = a.out ?? path.join('runs', corpus.name);
    checkOut(out, a.force, RUN_MARKS);
    if (!Number.isInteger(a.jobs) || a.jobs < 1) throw new UsageError('--jobs must be a whole number >= 1');
    const timeout = timeoutOf(a.timeout);
    const matrix = cells(corpus, strategies);
    const shard = a.shard === undefined ? undefined : sliceOf(parseShard(a.shard), matrix.length);
    const [from, to] = shard ? [shard.from, shard.to] : [0, matrix.length];
    const facts = {
      version: ctx.version(),
      command: ['ctxbench', ...ctx.argv],
      corpus,
      policy: corpus.policy,
      strategies,
      shard,
    };
    const writer = new RunWriter(out);
    const rows: Row[] = [];
    const take = (row: Row, compilation: CompilationLine) => {
      rows.push(row);
      writer.compilation(compilation);
    };
    try {
      await runSlice(
        { corpus, ledger, matrix, from, to, take },
        { jobs: a.jobs, timeout, secrets: [ledgerDirFor(corpus)] },
      );
      writer.finish(rows, facts);
    } catch (e) {
      writer.abort();
      throw e;
    }
    const part = shard
      ? ` (shard ${shard.index}/${shard.count}: cells ${shard.from}..${shard.to - 1} of ${shard.total})`
      : '';
    io.out(`${rows.length} compilations written to ${out}${part}\n\n`);
    io.out(`${headline(reportMarkdown(rows, reportTitle(corpus.name)))}\n`);
    const failed = rows.filter((r) => r.reason === STRATEGY_ERROR);
    if (failed.length === 0) return EXIT.ok;
    io.err(`ctxbench: ${failed.length} error rows:\n`);
    for (const r of failed) io.err(`  ${r.case}/${r.budget}/${r.strategy}: ${String(r.extras.error)}\n`);
    return EXIT.checkFailed;
  },
});
