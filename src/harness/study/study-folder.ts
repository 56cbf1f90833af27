/**
 * `study` apart from its printing: the corpus (its policy replaced or adjusted) and its ledger
 * read and checked, the strategies picked and the run folder's place checked, all before anything
 * is written; and what a finished run says.
 */
import path from 'node:path';
import type { CompilerPolicy } from '../../compiler/index.js';
import { type Lint, ledgerDirFor, loadCorpus, loadLedger } from '../corpus/index.js';
import { UsageError } from '../errors.js';
import { count } from '../format.js';
import { pickStrategies } from '../hosts/index.js';
import { statsByStrategy, strategiesOf } from '../metrics/index.js';
import { checkOut, guardOutput, type ProgressSink, progressLine } from '../output/index.js';
import { headlineTable, ingestedHeadline, type Table, verdictText } from '../report/index.js';
import { RUN_MARKS } from '../runfolder/index.js';
import { parseShard } from '../shard.js';
import type { Row } from '../types.js';
import { STRATEGY_ERROR } from '../vocabulary.js';
import type { Study, StudyOutcome } from './run-study.js';

export interface StudyAsked {
  readonly corpus: string;
  /** A policy file replacing the corpus's. */
  readonly policy: string | undefined;
  /** The policy as the caller wants it then (a real tokenizer for the overhead, say). */
  readonly policyOf: (p: CompilerPolicy) => CompilerPolicy;
  readonly lint: Lint;
  /** Names or groups; undefined for every registered strategy. */
  readonly strategies: readonly string[] | undefined;
  /** The run folder; `runs/<corpus name>` when undefined. */
  readonly out: string | undefined;
  readonly force: boolean;
  readonly resume: boolean;
  readonly jobs: number;
  readonly timeout: number;
  readonly memory: number | undefined;
  /** `i/n`: only the i-th of n slices of the matrix. */
  readonly shard: string | undefined;
  /** Where the progress line goes, and whether it is kept quiet. */
  readonly progress: { readonly sink: ProgressSink; readonly quiet: boolean };
  /** The ctxbench version and the command line, for manifest.json and resuming. */
  readonly version: string;
  readonly command: readonly string[];
}

/**
 * The study asked for, each strategy in processes of its own, with its progress told as it goes;
 * the folder it goes to, and `end` to call with the rows once it is finished.
 */
export function plannedStudy(o: StudyAsked): {
  readonly out: string;
  readonly study: Study;
  readonly end: (rows: number) => void;
} {
  if (!Number.isInteger(o.jobs) || o.jobs < 1) throw new UsageError('--jobs must be a whole number >= 1');
  const shard = o.shard === undefined ? undefined : parseShard(o.shard);
  const loaded = loadCorpus(o.corpus, o.policy, o.lint);
  const corpus = { ...loaded, policy: o.policyOf(loaded.policy) };
  const ledgerDir = ledgerDirFor(corpus);
  const ledger = loadLedger(ledgerDir, corpus, o.lint);
  const strategies = pickStrategies(o.strategies);
  const out = o.out ?? path.join('runs', corpus.name);
  guardOutput({ path: out, kind: 'folder', option: '--out', inputs: [corpus.dir, ledgerDir, o.policy] });
  checkOut(out, o.force, RUN_MARKS);
  const where = { in: 'processes', strategies, timeout: o.timeout, memory: o.memory } as const;
  const folder = { dir: out, resume: o.resume, version: o.version, command: o.command };
  const { hooks, end } = studyProgress(o.progress, o.resume ? out : undefined);
  return { out, study: { corpus, ledger, ledgerDir, where, jobs: o.jobs, shard, folder, ...hooks }, end };
}

/**
 * What a finished study says: how many compilations went where (which slice, for a shard), the
 * headline per strategy, and every error row, one line each (empty when there is none). For an
 * ingested corpus, the verdict comes first and the headline holds the file-recall figures.
 */
export function finishedText(
  outcome: Extract<StudyOutcome, { state: 'finished' }>,
  out: string,
  ingested = false,
): { readonly note: string; readonly table: Table; readonly errors: string } {
  const { rows, shard } = outcome;
  const part = shard
    ? ` (shard ${shard.index}/${shard.count}: cells ${shard.from}..${shard.to - 1} of ${shard.total})`
    : '';
  const failed = rows.filter((r) => r.reason === STRATEGY_ERROR);
  return {
    note: `${count(rows.length, 'compilation')} written to ${out}${part}\n\n${ingested ? `${verdictText(rows, strategiesOf(rows))}\n` : ''}`,
    table: ingested ? ingestedHeadline(rows, strategiesOf(rows)) : headlineTable(statsByStrategy(rows)),
    errors:
      failed.length === 0
        ? ''
        : [
            `ctxbench: ${count(failed.length, 'error row')}:\n`,
            ...failed.map((r) => `  ${r.case}/${r.budget}/${r.strategy}: ${String(r.extras.error)}\n`),
          ].join(''),
  };
}

/**
 * A study's progress: a line for each row as it is taken (output/progress-line.ts says how it
 * shows), and before the first, when resuming the folder `resuming`, how many rows were kept.
 */
function studyProgress(o: StudyAsked['progress'], resuming: string | undefined) {
  const line = progressLine(o.sink, { quiet: o.quiet });
  return {
    hooks: {
      onStart: (kept: number, total: number) => {
        if (resuming !== undefined)
          o.sink.err(`ctxbench: resuming ${resuming}: ${kept} of ${count(total, 'compilation')} kept\n`);
      },
      onRow: (row: Row, done: number, total: number) =>
        line.update(`study ${done}/${total}: ${row.strategy} on ${row.case}/${row.budget}`),
    },
    end: (rows: number) => line.end(`study: ${count(rows, 'compilation')}`),
  };
}

/** What a stopped study says: why, how far it got, where its rows wait, and how to resume it. */
export const stoppedLine = (
  outcome: Extract<StudyOutcome, { state: 'stopped' }>,
  why: string,
  out: string,
  resume: string,
): string =>
  `ctxbench: ${why} after ${outcome.rows.length} of ${count(outcome.total, 'compilation')}, kept in ${out}.partial; resume with: ${resume}\n`;
