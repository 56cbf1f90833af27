/** Corpus: reading what a run is given (corpus, ledger, records) and checking it, and real token counts. */

export { BlobWriter } from './blob-writer.js';
export { BLOB_INDEX, BlobStore } from './blobs.js';
export { findingsJSON, lintGiven, tally } from './check-corpus.js';
export { checkInputs, type InputFiles, located, orderRoles } from './compiler-checks.js';
export { CORPUS_MANIFEST, loadCorpus, requestAt } from './folder.js';
export {
  fileKind,
  forEachLine,
  isThere,
  linesOf,
  MAX_TEXT_BYTES,
  openRegular,
  readBytes,
  readJsonFile,
  readJsonLines,
  readTextFile,
  readTextLines,
} from './input-files.js';
export { loneSurrogate, MAX_NESTING, parseJson, tooDeep } from './json-text.js';
export { classOf, identitiesOfClass, ledgerDirFor, loadLedger, mustContents, truthFrom } from './ledger.js';
export { Findings, findingLine, type Lint, settle } from './lint.js';
export { identitiesOf } from './lint-corpus.js';
export { lintBatchShape } from './lint-files.js';
export { walk } from './lint-target.js';
export { countTokens, memoCounts, realTokens } from './real-tokens.js';
export {
  loadCandidates,
  loadPolicy,
  loadRequest,
  locate,
  toCandidates,
  toPolicy,
  toRequest,
} from './records.js';
export { auditTokens, countTokensBeside, warmTokenAudit } from './token-audit.js';
