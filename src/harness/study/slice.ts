/**
 * A slice of the study matrix (all of it, or one shard): each strategy answers (in a process of
 * its own, or here), up to `jobs` at once, and this thread measures and scores every answer.
 * Rows are taken in loop order whatever order the answers come in, so the job count never shows.
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

/** A cell's strategy answering the cell's inputs. */
export type Ask = (cell: Cell<StrategyInfo>, inputs: Inputs) => Promise<Answer>;

/** Run the slice; resolves when every cell has been taken. */
export function runSlice(r: Slice, o: SliceOptions): Promise<void> {
  const waiting = new Map<number, CellResult>();
  let next = r.from;
  let cursor = r.from;
  let running = 0;
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
    };
    const start = (index: number) => {
      const cell = r.matrix[index] as Cell<StrategyInfo>;
      const inputs = caseInputs(cell.kase, cell.budget, r.corpus.policy, r.ledger.get(cell.kase.name));
      running++;
      o.ask(cell, inputs)
        .then(async (answer) => {
          if (over) return;
          running--;
          // The next compilation starts in its process while this one is measured here.
          pump();
          measuring++;
          const result = await finishCellAudited(cell, r.corpus, r.ledger, (input) =>
            compileAnswer(cell.strategy.name, input, answer),
          );
          measuring--;
          if (over) return;
          arrive(index, result);
          done();
        })
        .catch(finish);
    };
    const pump = () => {
      while (!over && running < o.jobs && cursor < r.to) start(cursor++);
    };
    const done = () => {
      if (running === 0 && measuring === 0 && next >= r.to) finish();
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
