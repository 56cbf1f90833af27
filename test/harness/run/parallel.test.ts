import { beforeAll, describe, expect, it } from 'vitest';
import { type CellText, runParallel } from '../../../src/harness/run/parallel.js';
import { pickStrategies } from '../../../src/harness/run/registry.js';
import { type Cell, cells, runCell } from '../../../src/harness/run/runner.js';
import { runSlice } from '../../../src/harness/run/slice.js';
import type { CompilationLine, Row } from '../../../src/harness/types.js';
import { CORPUS_DIR, corpus } from '../../helpers/corpus.js';
import { referenceLedger } from '../../helpers/study.js';

const NAMES = ['dump', 'compiler'];
const SETUP = { corpus: CORPUS_DIR, strategies: NAMES };
const ledger = referenceLedger();
let matrix: Cell[] = [];

beforeAll(async () => {
  matrix = cells(corpus(), await pickStrategies(NAMES));
});

/** The row and line one in-process job writes for a cell, as JSON text. */
const here = (index: number): CellText => {
  const { row, compilation } = runCell(matrix[index] as Cell, corpus(), ledger);
  return { row: JSON.stringify(row), line: JSON.stringify(compilation) };
};

/** Run the indices on workers; every answer and every lost cell, in arrival order. */
async function onWorkers(indices: readonly number[], jobs: number) {
  const answers: [number, CellText][] = [];
  const lost: number[] = [];
  await runParallel({
    setup: SETUP,
    jobs,
    timeout: 60_000,
    indices,
    onResult: (index, result) => answers.push([index, result]),
    onLost: (index) => lost.push(index),
  });
  return { answers, lost };
}

describe('runParallel', () => {
  it('answers every index once, with the row and line of the in-process run', async () => {
    expect(matrix).toHaveLength(84); // 14 cases x 3 budgets x 2 strategies
    // A fixed shuffle: 37 is prime to 84, so k -> 37k mod 84 is a permutation.
    const indices = matrix.map((_, k) => (k * 37) % matrix.length);
    const { answers, lost } = await onWorkers(indices, 2);
    expect(lost).toEqual([]);
    expect(answers.map(([i]) => i).sort((a, b) => a - b)).toEqual(matrix.map((_, k) => k));
    for (const [index, result] of answers) {
      const want = here(index);
      expect(result.row, `row of cell ${index}`).toBe(want.row);
      expect(result.line, `line of cell ${index}`).toBe(want.line);
    }
  });

  it('works with more jobs than indices', async () => {
    const { answers, lost } = await onWorkers([5, 0, 83], 8);
    expect(lost).toEqual([]);
    expect(answers.map(([i]) => i).sort((a, b) => a - b)).toEqual([0, 5, 83]);
    for (const [index, { row, line }] of answers) expect({ row, line }).toEqual(here(index));
  });

  it('resolves at once for no indices, calling back for nothing', async () => {
    const calls: number[] = [];
    const done = runParallel({
      setup: SETUP,
      jobs: 4,
      timeout: 60_000,
      indices: [],
      onResult: (index) => calls.push(index),
      onLost: (index) => calls.push(index),
    }).then(() => 'resolved');
    const tick = new Promise((resolve) => setImmediate(() => resolve('pending')));
    expect(await Promise.race([done, tick])).toBe('resolved');
    expect(calls).toEqual([]);
  });
});

describe('runSlice', () => {
  it('takes the same rows and lines, in loop order, with and without workers', async () => {
    const run = async (jobs?: number) => {
      const taken: [string, string][] = [];
      const take = (row: Row, compilation: CompilationLine | string) =>
        taken.push([
          JSON.stringify(row),
          typeof compilation === 'string' ? compilation : JSON.stringify(compilation),
        ]);
      const workers = jobs === undefined ? undefined : { setup: SETUP, jobs, timeout: 60_000 };
      await runSlice({ corpus: corpus(), ledger, matrix, from: 10, to: 40, take }, workers);
      return taken;
    };
    const inThread = await run();
    expect(inThread).toHaveLength(30);
    expect(inThread.map(([row]) => JSON.parse(row).case)).toEqual(
      matrix.slice(10, 40).map((cell) => cell.kase.name),
    );
    expect(await run(3)).toEqual(inThread);
  });
});
