import { ledgerDirFor, loadLedger } from '../../src/harness/ledger.js';
import { loadStrategies } from '../../src/harness/registry.js';
import { runStudy, type StudyOutput } from '../../src/harness/runner.js';
import { corpus } from './corpus.js';

let cached: Promise<StudyOutput> | undefined;

/** The reference study, run once per test file. */
export const referenceStudy = (): Promise<StudyOutput> => {
  cached ??= loadStrategies().then((strategies) => runStudy(corpus(), referenceLedger(), strategies));
  return cached;
};

export const referenceLedger = () => loadLedger(ledgerDirFor(corpus()), corpus());
