/**
 * A slice of the study matrix (all of it, or one shard): each strategy answers (in a process of
 * its own, or here), up to `jobs` at once, and this thread measures and scores every answer.
 * Rows are taken in loop order whatever order the answers come in, so the job count never shows.
 *
 * Each job is a lane that takes whole cases when the slice has a case for every lane: a case's
 * pool then crosses to one strategy process once, and what a strategy keeps between the cells of
 * a case (Aider's tags and ranking, BM25's analysed files, an integer program's answer) is made
 * once, where lanes taking cells in turn made it in every process. A lane takes a run of
 * consecutive cases at once (`runOf`): what a strategy keeps from one case to the next (Aider's
 * tags of the files that did not change since the last commit it saw) serves its process only if
 * the next case is its own. A slice of fewer cases than jobs is taken cell by cell.
 */

import type { Answer } from '../hosts/index.js';
import { caseInputs, type Inputs } from '../hosts/index.js';
import { compileAnswer } from '../session/index.js';
import type { CaseLedger, CompilationLine, Corpus, Row, StrategyInfo } from '../types.js';
import { type Cell, type CellResult, finishCellAudited } from './matrix.js';

/** Cells [from, to) of the matrix, and where each finished one goes, in loop order. */
export interface Slice {
  readonly corpus: Corpus;
  readonly ledger: ReadonlyMap<string, CaseLedger>;
  readonly matrix: readonly Cell<StrategyInfo>[];
  readonly from: number;
  readonly to: number;
  readonly take: (row: Row, compilation: CompilationLine) => void;
}

export interface SliceOptions {
  /** Compilations running at once. */
  readonly jobs: number;
  /** How a cell's strategy answers; never rejects for a strategy's own failure. */
  readonly ask: Ask;
  /** Aborting stops the run: no more cells start, the promise rejects with the signal's reason. */
  readonly signal?: AbortSignal | undefined;
}

/** A cell's strategy answering the cell's inputs; `lane` names the job asking, whose processes it may keep. */
export type Ask = (cell: Cell<StrategyInfo>, inputs: Inputs, lane: number) => Promise<Answer>;

/**
 * How many cases past the oldest unfinished one the lanes may take, per lane, besides the runs
 * the other lanes hold: a lane that is through its run while another is slow on an earlier one
 * goes on, and what waits to be taken in loop order stays a few runs' rows.
 */
const AHEAD = 2;

/**
 * The longest run of consecutive cases a lane takes at once. Over the 140 SWE-bench Lite
 * instances of docs/performance.md, lanes taking cases in turn make Aider parse 274 million
 * tokens of Python; runs of at most 8, shorter toward the end, 237 million (one lane in order:
 * 185 million). Longer runs parse less, but the rows of a later run wait in memory, in loop
 * order, for the earlier one's.
 */
const RUN = 8;

/**
 * How many units a lane takes next, `left` being unclaimed: RUN, or less toward the end of the
 * slice, so that the lanes finish together rather than one waiting out another's long run (the
 * guided schedule of OpenMP).
 */
const runOf = (left: number, lanes: number): number =>
  Math.max(1, Math.min(RUN, Math.floor(left / (2 * lanes))));

/**
 * The slice in units a lane takes whole, as [from, to) pairs: its cases, or its cells when there
 * are fewer cases than lanes.
 */
function unitsOf(
  matrix: readonly Cell<StrategyInfo>[],
  from: number,
  to: number,
  lanes: number,
): { readonly units: (readonly [number, number])[]; readonly byCase: boolean } {
  const starts: number[] = [];
  for (let i = from; i < to; i++) if (i === from || matrix[i - 1]?.kase !== matrix[i]?.kase) starts.push(i);
  if (starts.length < lanes)
    return {
      units: Array.from({ length: to - from }, (_, k) => [from + k, from + k + 1] as const),
      byCase: false,
    };
  return { units: starts.map((s, k) => [s, starts[k + 1] ?? to] as const), byCase: true };
}

/** Run the slice; resolves when every cell has been taken. */
export function runSlice(r: Slice, o: SliceOptions): Promise<void> {
  const waiting = new Map<number, CellResult>();
  const { units, byCase } = unitsOf(r.matrix, r.from, r.to, o.jobs);
  // Cases are held to the other lanes' runs and AHEAD per lane past the oldest; single cells, as
  // many as the lanes take.
  const ahead = byCase ? RUN * (o.jobs - 1) + AHEAD * o.jobs : Number.POSITIVE_INFINITY;
  // Each lane: the cells left of the unit it holds, and whether one of them is being answered.
  const lanes = Array.from({ length: o.jobs }, () => ({ at: 0, end: 0, busy: false }));
  let claimed = 0;
  // The unit holding the next cell to take.
  let oldest = 0;
  let next = r.from;
  // Cells answered whose rendered text is still being counted (`finishCellAudited`).
  let measuring = 0;
  let over = false;
  return new Promise<void>((resolve, reject) => {
    const finish = (error?: unknown) => {
      if (over) return;
      over = true;
      o.signal?.removeEventListener('abort', stop);
      if (error === undefined) resolve();
      else reject(error);
    };
    const stop = () => finish(o.signal?.reason ?? new Error('stopped'));
    const arrive = (index: number, result: CellResult) => {
      waiting.set(index, result);
      for (let t = waiting.get(next); !over && t !== undefined; t = waiting.get(next)) {
        waiting.delete(next++);
        r.take(t.row, t.compilation);
      }
      while (oldest < units.length && (units[oldest] as readonly [number, number])[1] <= next) oldest++;
    };
    const start = (index: number, lane: { busy: boolean }, k: number) => {
      const cell = r.matrix[index] as Cell<StrategyInfo>;
      const inputs = caseInputs(cell.kase, cell.budget, r.corpus.policy, r.ledger.get(cell.kase.name));
      lane.busy = true;
      o.ask(cell, inputs, k)
        .then(async (answer) => {
          if (over) return;
          lane.busy = false;
          // The lane's next compilation starts in its process while this one is measured here.
          pump();
          measuring++;
          const result = await finishCellAudited(cell, r.corpus, r.ledger, (input) =>
            compileAnswer(cell.strategy.name, input, answer),
          );
          measuring--;
          if (over) return;
          arrive(index, result);
          pump();
          done();
        })
        .catch(finish);
    };
    const pump = () => {
      lanes.forEach((lane, k) => {
        if (over || lane.busy) return;
        if (lane.at >= lane.end && claimed < units.length && claimed < oldest + ahead) {
          const n = byCase ? runOf(units.length - claimed, o.jobs) : 1;
          lane.at = (units[claimed] as readonly [number, number])[0];
          claimed += n;
          lane.end = (units[Math.min(claimed, units.length) - 1] as readonly [number, number])[1];
        }
        if (lane.at < lane.end) start(lane.at++, lane, k);
      });
    };
    const done = () => {
      if (lanes.every((l) => !l.busy) && measuring === 0 && next >= r.to) finish();
    };
    if (o.signal?.aborted) stop();
    o.signal?.addEventListener('abort', stop);
    try {
      pump();
      done();
    } catch (e) {
      finish(e);
    }
  });
}
