import { describe, expect, it } from 'vitest';
import { ledgerDirFor } from '../../../src/harness/input/ledger.js';
import { loadStrategies } from '../../../src/harness/run/registry.js';
import { type Cell, cells, runCell } from '../../../src/harness/run/runner.js';
import { runSlice } from '../../../src/harness/run/slice.js';
import type { CompilationLine, Row } from '../../../src/harness/types.js';
import { corpus } from '../../helpers/corpus.js';
import { referenceLedger } from '../../helpers/study.js';

const ledger = referenceLedger();

/** What runSlice takes, as the JSON text a run folder would hold. */
async function hosted(matrix: readonly Cell[], from: number, to: number, jobs: number) {
  const taken: [string, string][] = [];
  const take = (row: Row, line: CompilationLine) => taken.push([JSON.stringify(row), JSON.stringify(line)]);
  await runSlice(
    { corpus: corpus(), ledger, matrix, from, to, take },
    { jobs, timeout: 120_000, secrets: [ledgerDirFor(corpus())] },
  );
  return taken;
}

/** The same cells compiled in this thread, with no process of their own. */
const inThread = (matrix: readonly Cell[], from: number, to: number) =>
  matrix.slice(from, to).map((cell) => {
    const { row, compilation } = runCell(cell, corpus(), ledger);
    return [JSON.stringify(row), JSON.stringify(compilation)];
  });

describe('runSlice: every strategy in a process of its own', () => {
  it('takes, at one job and at three, exactly the rows and lines of compiling in this thread, in loop order', async () => {
    const matrix = cells(corpus(), await loadStrategies());
    const want = inThread(matrix, 0, matrix.length);
    expect(await hosted(matrix, 0, matrix.length, 1)).toEqual(want);
    expect(await hosted(matrix, 0, matrix.length, 3)).toEqual(want);
  });

  it('runs a slice of the matrix, and more jobs than cells', async () => {
    const matrix = cells(corpus(), (await loadStrategies()).slice(0, 2));
    const got = await hosted(matrix, 10, 13, 8);
    expect(got.map(([row]) => JSON.parse(row).case)).toEqual(matrix.slice(10, 13).map((c) => c.kase.name));
    expect(got).toEqual(inThread(matrix, 10, 13));
  });

  it('resolves at once for an empty slice', async () => {
    const matrix = cells(corpus(), (await loadStrategies()).slice(0, 1));
    expect(await hosted(matrix, 5, 5, 2)).toEqual([]);
  });

  it('stops when aborted: the promise rejects with the reason and no cell is taken after', async () => {
    const matrix = cells(corpus(), await loadStrategies());
    const controller = new AbortController();
    const taken: Row[] = [];
    const run = runSlice(
      {
        corpus: corpus(),
        ledger,
        matrix,
        from: 0,
        to: matrix.length,
        take: (row) => {
          taken.push(row);
          if (taken.length === 7) controller.abort(new Error('enough'));
        },
      },
      { jobs: 2, timeout: 120_000, secrets: [], signal: controller.signal },
    );
    await expect(run).rejects.toThrow('enough');
    const count = taken.length;
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(taken.length).toBe(count);
    expect(count).toBeLessThan(matrix.length);
  });
});
