/** Input: reading what a run is given (corpus, ledger, records), checking it, and its errors. */
export { checkInputs, type InputFiles, located } from './checks.js';
export { loadCorpus, requestAt } from './corpus.js';
export { InputError, recordName, UsageError } from './errors.js';
export { fromRoot, packageRoot, readJsonFile } from './files.js';
export { classOf, identitiesOfClass, ledgerDirFor, loadLedger, readTruth, truthFrom } from './ledger.js';
export {
  type CandidateRules,
  type LoadedCandidates,
  loadCandidates,
  loadPolicy,
  loadRequest,
  locate,
  toCandidates,
  toPolicy,
  toRequest,
} from './records.js';
