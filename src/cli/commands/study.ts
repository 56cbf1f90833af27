import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { policyToJSON } from '../../compiler/index.js';
import { loadCorpus } from '../../harness/input/corpus.js';
import { UsageError } from '../../harness/input/errors.js';
import { ledgerDirFor, loadLedger } from '../../harness/input/ledger.js';
import { checkOut } from '../../harness/output/folder.js';
import { progressLine } from '../../harness/output/progress.js';
import { corpusDigest, RUN_MARKS } from '../../harness/output/run-folder.js';
import { type RunIdentity, RunWriter } from '../../harness/output/run-writer.js';
import { count } from '../../harness/report/format.js';
import { headlineTable } from '../../harness/report/headline.js';
import type { TableFormat } from '../../harness/report/table.js';
import { Hosts } from '../../harness/run/hosts.js';
import { pickStrategies } from '../../harness/run/registry.js';
import { type Cell, cells } from '../../harness/run/runner.js';
import { parseShard, sliceOf } from '../../harness/run/shard.js';
import { runSlice } from '../../harness/run/slice.js';
import { statsByStrategy } from '../../harness/score/stats.js';
import type {
  CaseLedger,
  CompilationLine,
  Corpus,
  HostedStrategy,
  Row,
  ShardInfo,
} from '../../harness/types.js';
import { STRATEGY_ERROR } from '../../harness/vocabulary.js';
import {
  type Context,
  corpusOption,
  defineCommand,
  formatOption,
  lintOf,
  quietTableOption,
  splitList,
  strictOption,
  tableOutput,
  timeoutOf,
  timeoutOption,
} from '../command.js';
import { EXIT, type ExitCode } from '../io.js';
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
      'the overhead priced by o200k; the run records it in manifest.json',
    ],
  ],
  options: (y) =>
    y
      .option('corpus', corpusOption)
      .option('strategies', {
        type: 'string',
        describe: 'comma-separated subset (default: all registered)',
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
    const lint = lintOf(a.strict, ctx.io);
    const underTokenizer = tokenizerSetting(a.tokenizer);
    const loaded = loadCorpus(a.corpus, a.policy, lint);
    const corpus = { ...loaded, policy: underTokenizer(loaded.policy) };
    const ledgerDir = ledgerDirFor(corpus);
    const ledger = loadLedger(ledgerDir, corpus, lint);
    const refs = pickStrategies(splitList(a.strategies));
    const out = a.out ?? path.join('runs', corpus.name);
    checkOut(out, a.force, RUN_MARKS);
    if (!Number.isInteger(a.jobs) || a.jobs < 1) throw new UsageError('--jobs must be a whole number >= 1');
    const timeout = timeoutOf(a.timeout);
    const shard = a.shard === undefined ? undefined : parseShard(a.shard);
    const hosts = new Hosts({ timeout, keep: a.jobs + refs.length, secrets: [ledgerDir] });
    try {
      const strategies = await hosts.describe(refs);
      const matrix = cells(corpus, strategies);
      const plan: Plan = {
        corpus,
        ledger,
        out,
        hosts,
        strategies,
        matrix,
        shard: shard && sliceOf(shard, matrix.length),
        identity: {
          ctxbench: ctx.version(),
          corpus: corpusDigest(corpus.dir),
          ledger: corpusDigest(ledgerDir),
          policy: policyToJSON(corpus.policy),
          strategies: refs.map((r) => `${r.name} ${fileDigest(r.file)}`),
          shard: a.shard ?? null,
          timeout,
        },
      };
      return await stoppable((signal) => runStudy(a, ctx, plan, signal));
    } finally {
      hosts.close();
    }
  },
});

interface Plan {
  readonly corpus: Corpus;
  readonly ledger: ReadonlyMap<string, CaseLedger>;
  readonly out: string;
  readonly hosts: Hosts;
  readonly strategies: readonly HostedStrategy[];
  readonly matrix: readonly Cell<HostedStrategy>[];
  readonly shard: ShardInfo | undefined;
  readonly identity: RunIdentity;
}

const fileDigest = (file: string) => createHash('sha256').update(fs.readFileSync(file)).digest('hex');

async function runStudy(
  a: { jobs: number; resume: boolean; format: TableFormat; quiet: boolean },
  ctx: Context,
  p: Plan,
  signal: AbortSignal,
): Promise<ExitCode> {
  const { io } = ctx;
  const { corpus, ledger, out, matrix, shard } = p;
  const [from, to] = shard ? [shard.from, shard.to] : [0, matrix.length];
  const cellAt = (k: number) => {
    const cell = matrix[from + k] as Cell<HostedStrategy>;
    return { case: cell.kase.name, budget: cell.budget, strategy: cell.strategy.name };
  };
  const writer = new RunWriter(out, p.identity, cellAt, a.resume);
  const { rows } = writer;
  if (a.resume)
    io.err(`ctxbench: resuming ${out}: ${rows.length} of ${count(to - from, 'compilation')} kept\n`);
  const progress = progressLine(io, { quiet: a.quiet });
  const take = (row: Row, line: CompilationLine) => {
    writer.take(row, line);
    progress.update(`study ${rows.length}/${to - from}: ${row.strategy} on ${row.case}/${row.budget}`);
  };
  try {
    await runSlice(
      { corpus, ledger, matrix, from: from + rows.length, to, take },
      { jobs: a.jobs, hosts: p.hosts, signal },
    );
    progress.end(`study: ${count(to - from, 'compilation')}`);
    await writer.finish({
      version: ctx.version(),
      command: ['ctxbench', ...ctx.argv],
      corpus,
      policy: corpus.policy,
      strategies: p.strategies,
      shard,
    });
  } catch (e) {
    if (!(e instanceof Stopped)) {
      writer.abort();
      throw e;
    }
    writer.stop();
    const again = ctx.argv.includes('--resume') ? ctx.argv : [...ctx.argv, '--resume'];
    io.err(
      `ctxbench: ${e.message} after ${rows.length} of ${count(to - from, 'compilation')}, kept in ${out}.partial; resume with: ${shellLine(['ctxbench', ...again])}\n`,
    );
    return EXIT[e.signal];
  }
  const part = shard
    ? ` (shard ${shard.index}/${shard.count}: cells ${shard.from}..${shard.to - 1} of ${shard.total})`
    : '';
  const printed = tableOutput(io, a.format, a.quiet);
  printed.note(`${count(rows.length, 'compilation')} written to ${out}${part}\n\n`);
  const stats = statsByStrategy(rows);
  printed.table(headlineTable(stats));
  const failed = rows.filter((r) => r.reason === STRATEGY_ERROR);
  if (failed.length === 0) return EXIT.ok;
  io.err(`ctxbench: ${count(failed.length, 'error row')}:\n`);
  for (const r of failed) io.err(`  ${r.case}/${r.budget}/${r.strategy}: ${String(r.extras.error)}\n`);
  return EXIT.checkFailed;
}
