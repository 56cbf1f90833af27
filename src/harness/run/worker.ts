/**
 * A study worker: loads the same corpus, ledger and strategies as the main thread (all of it
 * deterministic), then compiles the cells it is sent, by index in loop order.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { loadCorpus } from '../input/corpus.js';
import { ledgerDirFor, loadLedger } from '../input/ledger.js';
import type { WorkerSetup } from './parallel.js';
import { pickStrategies } from './registry.js';
import { cells, runCell } from './runner.js';

const setup = workerData as WorkerSetup;
const port = parentPort;
if (port !== null) {
  const corpus = loadCorpus(setup.corpus, setup.policy);
  const ledger = loadLedger(ledgerDirFor(corpus), corpus);
  const matrix = cells(corpus, await pickStrategies(setup.strategies));
  // A batch of cells at a time; each result goes back as soon as it is made, so the watchdog
  // can tell which compilation is running.
  port.on('message', (indices: readonly number[]) => {
    for (const index of indices) {
      const cell = matrix[index];
      if (cell === undefined) throw new Error(`no cell ${index}`);
      // Row and line travel as the JSON text one job would write: cheaper to pass than to clone,
      // and nothing can read differently on the other side.
      const { row, compilation } = runCell(cell, corpus, ledger);
      port.postMessage({ index, row: JSON.stringify(row), line: JSON.stringify(compilation) });
    }
  });
  port.postMessage({ ready: true });
}
