/**
 * A study worker: loads the same corpus, ledger and strategies as the main thread (all of it
 * deterministic), then compiles the cells it is sent, by index in loop order.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { loadCorpus } from './corpus.js';
import { ledgerDirFor, loadLedger } from './ledger.js';
import { pickStrategies } from './registry.js';
import { cells, runCell } from './runner.js';

export interface WorkerSetup {
  readonly corpus: string;
  readonly policy?: string | undefined;
  readonly strategies: readonly string[];
}

const setup = workerData as WorkerSetup;
const port = parentPort;
if (port !== null) {
  const corpus = loadCorpus(setup.corpus, setup.policy);
  const ledger = loadLedger(ledgerDirFor(corpus), corpus);
  const matrix = cells(corpus, await pickStrategies(setup.strategies));
  port.on('message', (index: number) => {
    const cell = matrix[index];
    if (cell === undefined) throw new Error(`no cell ${index}`);
    port.postMessage({ index, ...runCell(cell, corpus, ledger) });
  });
  port.postMessage({ ready: true });
}
