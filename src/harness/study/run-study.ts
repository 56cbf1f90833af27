/**
 * The study, one pipeline for the CLI, `bench`, the tests and the library: every cell of the
 * matrix (or one shard's slice of it) answered by its strategy, measured with the one ruler,
 * scored against the ledger and taken in loop order, and the run folder written as it goes when
 * one is asked for. Where the strategies run is the caller's choice; the rows are the same bytes.
 */
import { warmTokenAudit } from '../corpus/index.js';
import { sliceOf } from '../shard.js';
import type { CaseLedger, CompilationLine, Corpus, Row, Shard, ShardInfo, StrategyInfo } from '../types.js';
import { answering, type Where } from './answering.js';
import { cells } from './matrix.js';
import { folderWriter, type StudyFolder } from './resume.js';
import { runSlice } from './slice.js';

export type { Where } from './answering.js';
export type { StudyFolder } from './resume.js';

export interface Study {
  readonly corpus: Corpus;
  readonly ledger: ReadonlyMap<string, CaseLedger>;
  /** The ledger's folder: no strategy process may read it, and a resumed run must have the same. */
  readonly ledgerDir?: string | undefined;
  readonly where: Where;
  /** Compilations at once (processes only); the job count never shows in the rows. */
  readonly jobs?: number | undefined;
  readonly shard?: Shard | undefined;
  readonly folder?: StudyFolder | undefined;
  /** Before the first cell: rows kept from a stopped run (resume), of how many in the slice. */
  readonly onStart?: ((kept: number, total: number) => void) | undefined;
  /** Each row as it is taken, in loop order, with how many of the slice are done. */
  readonly onRow?: ((row: Row, done: number, total: number) => void) | undefined;
  /** Aborting stops the run: no more cells start, the processes stop, a folder keeps what is done. */
  readonly signal?: AbortSignal | undefined;
}

export type StudyOutcome =
  | {
      readonly state: 'finished';
      readonly rows: readonly Row[];
      /** Each row's compilation when no folder is written (the folder's compilations.jsonl holds them otherwise). */
      readonly compilations: readonly CompilationLine[];
      /** What each strategy said it is, in registry order. */
      readonly strategies: readonly StrategyInfo[];
      readonly shard: ShardInfo | undefined;
    }
  | {
      /** Stopped by the signal; a folder's finished cells wait in `<dir>.partial` for resuming. */
      readonly state: 'stopped';
      readonly rows: readonly Row[];
      readonly reason: unknown;
      readonly total: number;
    };

/**
 * Run the study. Bad inputs (a strategy file that does not load, a folder that cannot resume)
 * throw before any cell runs; a strategy that fails is an error row, not an exception.
 */
export async function runStudy(s: Study): Promise<StudyOutcome> {
  // The vocabularies load in their thread while the strategies' processes start.
  warmTokenAudit();
  const open = await answering(s.where, {
    keep: (s.jobs ?? 1) + s.where.strategies.length,
    secrets: s.ledgerDir === undefined ? [] : [s.ledgerDir],
  });
  try {
    const { strategies } = open;
    const matrix = cells(s.corpus, strategies);
    const shard = s.shard && sliceOf(s.shard, matrix.length);
    const [from, to] = shard ? [shard.from, shard.to] : [0, matrix.length];
    const writer = s.folder && (await folderWriter({ ...s, folder: s.folder }, open, matrix, from));
    const rows: Row[] = writer?.rows ?? [];
    const kept = rows.length;
    s.onStart?.(kept, to - from);
    const compilations: CompilationLine[] = [];
    const take = (row: Row, line: CompilationLine) => {
      if (writer) writer.take(row, line);
      else {
        rows.push(row);
        compilations.push(line);
      }
      s.onRow?.(row, rows.length, to - from);
    };
    try {
      await runSlice(
        { corpus: s.corpus, ledger: s.ledger, matrix, from: from + kept, to, take },
        { jobs: s.jobs ?? 1, ask: open.ask, signal: s.signal },
      );
      // Every cell is answered: the processes' memory is the report's to use.
      open.close();
      await writer?.finish({
        version: (s.folder as StudyFolder).version,
        command: (s.folder as StudyFolder).command,
        corpus: s.corpus,
        policy: s.corpus.policy,
        strategies,
        shard,
        ledgerDir: s.ledgerDir,
        ...(s.where.in === 'processes' ? { timeout: s.where.timeout, memory: s.where.memory } : {}),
      });
    } catch (e) {
      if (s.signal?.aborted !== true || e !== s.signal.reason) {
        writer?.abort();
        throw e;
      }
      writer?.stop();
      return { state: 'stopped', rows, reason: e, total: to - from };
    }
    return { state: 'finished', rows, compilations, strategies, shard };
  } finally {
    open.close();
  }
}
