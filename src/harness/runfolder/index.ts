/** Run folder: the one reader and writer of a run folder, its typed manifest, its list of files, shards merged. */

export {
  corpusDigest,
  corpusIngested,
  corpusNameOf,
  manifestOf,
  type RunManifest,
  readRunManifest,
  runLabel,
} from './manifest.js';
export { mergeShards } from './merge.js';
export {
  type CorpusFacts,
  casesOf,
  compilationId,
  METRIC_FIELDS,
  type RunFolder,
  readRunFolder,
  sameCorpus,
} from './read.js';
export { RUN_FILES, RUN_MARKS, readRows, reportFiles } from './rows.js';
export { RunWriter, type Vet } from './writer.js';
