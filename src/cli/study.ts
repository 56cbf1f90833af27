import path from 'node:path';
import { loadCorpus } from '../harness/corpus.js';
import { UsageError } from '../harness/errors.js';
import { fromRoot } from '../harness/files.js';
import { checkOut } from '../harness/folder.js';
import { ledgerDirFor, loadLedger } from '../harness/ledger.js';
import { type CellText, runParallel } from '../harness/parallel.js';
import { pickStrategies } from '../harness/registry.js';
import { reportMarkdown } from '../harness/report.js';
import { RUN_MARKS, RunWriter, reportTitle } from '../harness/runfolder.js';
import { type Cell, type CompilationLine, cells, failedCell, runCell } from '../harness/runner.js';
import { parseShard, sliceOf } from '../harness/shard.js';
import { type Row, STRATEGY_ERROR } from '../harness/types.js';
import { EXIT, type ExitCode, type Io } from './io.js';

export interface StudyArgs {
  readonly corpus: string;
  readonly strategies?: string | undefined;
  readonly policy?: string | undefined;
  readonly out?: string | undefined;
  readonly force: boolean;
  readonly jobs: number;
  readonly timeout: number;
  readonly shard?: string | undefined;
  readonly version: string;
  readonly argv: readonly string[];
}

export const splitList = (list: string | undefined): string[] | undefined =>
  list === undefined
    ? undefined
    : list
        .split(',')
        .map((s) => s.trim())
        .filter((s) => s !== '');

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
export async function studyCommand(a: StudyArgs, io: Io): Promise<ExitCode> {
  const corpus = loadCorpus(a.corpus, a.policy);
  const ledger = loadLedger(ledgerDirFor(corpus), corpus);
  const strategies = await pickStrategies(splitList(a.strategies));
  const out = a.out ?? path.join('runs', corpus.name);
  checkOut(out, a.force, RUN_MARKS);
  if (!Number.isInteger(a.jobs) || a.jobs < 1) throw new UsageError('--jobs must be a whole number >= 1');
  if (!Number.isFinite(a.timeout) || a.timeout < 1)
    throw new UsageError('--timeout must be a number of milliseconds >= 1');
  const matrix = cells(corpus, strategies);
  const shard = a.shard === undefined ? undefined : sliceOf(parseShard(a.shard), matrix.length);
  const [from, to] = shard ? [shard.from, shard.to] : [0, matrix.length];
  const facts = { version: a.version, command: a.argv, corpus, policy: corpus.policy, strategies, shard };
  const writer = new RunWriter(out);
  const rows: Row[] = [];
  const take = (row: Row, compilation: CompilationLine | string) => {
    rows.push(row);
    writer.compilation(compilation);
  };
  try {
    if (a.jobs === 1) {
      for (let k = from; k < to; k++) {
        const { row, compilation } = runCell(matrix[k] as Cell, corpus, ledger);
        take(row, compilation);
      }
    } else {
      // Workers answer in any order; results are written in loop order as they join up.
      const waiting = new Map<number, CellText>();
      let next = from;
      const arrive = (index: number, result: CellText) => {
        waiting.set(index, result);
        for (let r = waiting.get(next); r !== undefined; r = waiting.get(next)) {
          waiting.delete(next++);
          take(JSON.parse(r.row) as Row, r.line);
        }
      };
      await runParallel({
        setup: { corpus: a.corpus, policy: a.policy, strategies: strategies.map((s) => s.name) },
        jobs: a.jobs,
        timeout: a.timeout,
        indices: Array.from({ length: to - from }, (_, k) => from + k),
        onResult: arrive,
        onLost: (index, message) => {
          const { row, compilation } = failedCell(matrix[index] as Cell, corpus, ledger, message);
          arrive(index, { row: JSON.stringify(row), line: JSON.stringify(compilation) });
        },
      });
      if (next !== to)
        throw new Error(`only ${next - from} of ${to - from} cells came back from the workers`);
    }
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
}

export const DEFAULT_PUBLISHED = (): string => fromRoot('corpus/compiler-v1/published');
