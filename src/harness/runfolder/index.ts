/** Run folder: the one reader and writer of a run folder, its typed manifest, its list of files, shards merged. */

export { byReference, expandLine } from './by-reference.js';
export { corpusDigest } from './digest.js';
export { RUN_FILE, RUN_MARKS, runInputs } from './files.js';
export { findingsDocument } from './findings-runs.js';
export { manifestOf, type RunManifest, runLabel } from './manifest.js';
export { mergeShards } from './merge-runs.js';
export { mergeSliceRuns, readSliceRuns } from './merge-slices.js';
export {
  type CorpusFacts,
  casesOf,
  compilationId,
  METRIC_FIELDS,
  type RunFolder,
  readRunFolder,
  sameCorpus,
} from './read-run.js';
export { reportFiles, runReportFiles } from './rows.js';
export { finishedManifest, runLines, strayFiles } from './run-lines.js';
export { compiledLines, corpusTexts, folderTexts } from './run-texts.js';
export { RunWriter, type Vet } from './writer.js';
