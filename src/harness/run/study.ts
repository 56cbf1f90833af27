/**
 * The study, one pipeline for the CLI, `bench`, the tests and the library: every cell of the
 * matrix (or one shard's slice of it) answered by its strategy, measured with the one ruler,
 * scored against the ledger and taken in loop order, and the run folder written as it goes when
 * one is asked for. Where the strategies run is the caller's choice; the rows are the same bytes.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { policyToJSON } from '../../compiler/index.js';
import { warmTokenAudit } from '../input/index.js';
import { corpusDigest, RunWriter, type Vet } from '../output/index.js';
import type {
  CaseLedger,
  CompilationLine,
  Corpus,
  HostedStrategy,
  Row,
  Shard,
  ShardInfo,
  Strategy,
  StrategyInfo,
  StrategyRef,
} from '../types.js';
import { assembleAwaited } from './guard.js';
import { Hosts } from './hosts.js';
import { strategyInput } from './input.js';
import { checkCell } from './rederive.js';
import { type Cell, cells } from './runner.js';
import { sliceOf } from './shard.js';
import { type Ask, runSlice } from './slice.js';

/** Where the strategies answer. */
export type Where =
  /**
   * Each strategy file in a process of its own, under the permission model when built: a
   * strategy cannot read the ledger unless it says so, change another's input, or stall the
   * run past `timeout` (milliseconds per compilation). What the CLI does.
   */
  | {
      readonly in: 'processes';
      readonly strategies: readonly StrategyRef[];
      readonly timeout: number;
      /** MiB of heap per strategy process; hosts.ts's default when absent. */
      readonly memory?: number | undefined;
    }
  /** Strategies already loaded, answering in this thread: no isolation, no timeout, no process start. */
  | { readonly in: 'thread'; readonly strategies: readonly Strategy[] };

/** A run folder to write as the study goes. */
export interface StudyFolder {
  readonly dir: string;
  /** Continue a stopped run in `<dir>.partial` from its finished cells. */
  readonly resume: boolean;
  /** The ctxbench version and the command line, for manifest.json and resuming. */
  readonly version: string;
  readonly command: readonly string[];
}

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
  const hosts =
    s.where.in === 'processes'
      ? new Hosts({
          timeout: s.where.timeout,
          memory: s.where.memory,
          keep: (s.jobs ?? 1) + s.where.strategies.length,
          secrets: s.ledgerDir === undefined ? [] : [s.ledgerDir],
        })
      : undefined;
  try {
    const strategies: readonly StrategyInfo[] =
      s.where.in === 'processes' ? await (hosts as Hosts).describe(s.where.strategies) : s.where.strategies;
    const matrix = cells(s.corpus, strategies);
    const shard = s.shard && sliceOf(s.shard, matrix.length);
    const [from, to] = shard ? [shard.from, shard.to] : [0, matrix.length];
    const writer = s.folder && folderWriter(s, strategies, matrix, from);
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
        { jobs: s.jobs ?? 1, ask: hosts ? hostedAsk(hosts) : threadAsk, signal: s.signal },
      );
      await writer?.finish({
        version: (s.folder as StudyFolder).version,
        command: (s.folder as StudyFolder).command,
        corpus: s.corpus,
        policy: s.corpus.policy,
        strategies,
        shard,
        ledgerDir: s.ledgerDir,
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
    hosts?.close();
  }
}

/** A strategy in its own process answers; the hosts keep it alive between its cells. */
const hostedAsk =
  (hosts: Hosts): Ask =>
  (cell, inputs) =>
    hosts.ask(cell.strategy as HostedStrategy, cell.kase.name, inputs);

/** A loaded strategy answers here, behind the same guard a strategy's process uses. */
const threadAsk: Ask = async (cell, inputs) => {
  const strategy = cell.strategy as Strategy;
  return assembleAwaited(strategy, strategyInput(strategy, inputs));
};

/**
 * The folder's writer, which on resume holds the finished rows of the stopped run. Everything a
 * resumed run must share with the run it continues goes into its identity.
 */
function folderWriter(
  s: Study,
  strategies: readonly StrategyInfo[],
  matrix: readonly Cell<StrategyInfo>[],
  from: number,
): RunWriter {
  const folder = s.folder as StudyFolder;
  const files = s.where.in === 'processes' ? s.where.strategies.map((r) => r.file) : [];
  const identity = {
    ctxbench: folder.version,
    corpus: corpusDigest(s.corpus.dir),
    ledger: s.ledgerDir === undefined ? null : corpusDigest(s.ledgerDir),
    policy: policyToJSON(s.corpus.policy),
    strategies: strategies.map((st, k) => `${st.name} ${files[k] === undefined ? '' : fileDigest(files[k])}`),
    shard: s.shard ? `${s.shard.index}/${s.shard.count}` : null,
    timeout: s.where.in === 'processes' ? s.where.timeout : null,
  };
  // A kept row must be what the study writes for its compilation: a row edited in the partial
  // folder would otherwise be carried into the finished run.
  const vet: Vet = (k, rowText, lineText) => {
    const c = checkCell(
      matrix[from + k] as Cell<StrategyInfo>,
      s.corpus,
      s.ledger,
      rowText,
      lineText,
      rowText,
    );
    if (c.compilations !== null) return { file: 'compilations.jsonl', text: c.compilations };
    if (c.rows !== null || c.row === null) return { file: 'rows.jsonl', text: c.rows ?? 'no row' };
    return c.row;
  };
  return new RunWriter(folder.dir, identity, vet, folder.resume);
}

const fileDigest = (file: string) => createHash('sha256').update(fs.readFileSync(file)).digest('hex');
