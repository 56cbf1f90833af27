/**
 * A slice of the study matrix (all of it, or one shard) run in loop order, in this thread or on
 * worker threads: the rows come out the same either way.
 */
import type { CaseLedger, CompilationLine, Corpus, Row } from '../types.js';
import { type CellText, runParallel, type WorkerSetup } from './parallel.js';
import { type Cell, failedCell, runCell } from './runner.js';

/** How to spread a slice over workers. */
export interface Workers {
  readonly setup: WorkerSetup;
  readonly jobs: number;
  /** Per compilation, in milliseconds. */
  readonly timeout: number;
}

/** Cells [from, to) of the matrix, and where each finished one goes, in loop order. */
export interface Slice {
  readonly corpus: Corpus;
  readonly ledger: ReadonlyMap<string, CaseLedger>;
  readonly matrix: readonly Cell[];
  readonly from: number;
  readonly to: number;
  readonly take: (row: Row, compilation: CompilationLine | string) => void;
}

/** The cells of a slice, here or on worker threads; the same rows either way. */
export async function runSlice(r: Slice, workers?: Workers | undefined): Promise<void> {
  if (workers === undefined) runHere(r);
  else await runOnWorkers(r, workers);
}

function runHere(r: Slice): void {
  for (let k = r.from; k < r.to; k++) {
    const { row, compilation } = runCell(r.matrix[k] as Cell, r.corpus, r.ledger);
    r.take(row, compilation);
  }
}

/** Workers answer in any order; results are taken in loop order as they join up. */
async function runOnWorkers(r: Slice, o: Workers): Promise<void> {
  const waiting = new Map<number, CellText>();
  let next = r.from;
  const arrive = (index: number, result: CellText) => {
    waiting.set(index, result);
    for (let t = waiting.get(next); t !== undefined; t = waiting.get(next)) {
      waiting.delete(next++);
      r.take(JSON.parse(t.row) as Row, t.line);
    }
  };
  await runParallel({
    setup: o.setup,
    jobs: o.jobs,
    timeout: o.timeout,
    indices: Array.from({ length: r.to - r.from }, (_, k) => r.from + k),
    onResult: arrive,
    onLost: (index, message) => {
      const { row, compilation } = failedCell(r.matrix[index] as Cell, r.corpus, r.ledger, message);
      arrive(index, { row: JSON.stringify(row), line: JSON.stringify(compilation) });
    },
  });
  if (next !== r.to)
    throw new Error(`only ${next - r.from} of ${r.to - r.from} cells came back from the workers`);
}
