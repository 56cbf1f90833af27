import { ledgerDirFor, loadLedger } from '../../src/harness/input/ledger.js';
import { loadStrategies } from '../../src/harness/run/registry.js';
import { runStudy } from '../../src/harness/run/runner.js';
import type { Row } from '../../src/harness/types.js';
import { corpus } from './corpus.js';

let cached: Promise<{ rows: Row[] }> | undefined;

/** The reference study, run once per test file. */
export const referenceStudy = (): Promise<{ rows: Row[] }> => {
  cached ??= loadStrategies().then((strategies) => ({
    rows: runStudy(corpus(), referenceLedger(), strategies),
  }));
  return cached;
};

export const referenceLedger = () => loadLedger(ledgerDirFor(corpus()), corpus());
