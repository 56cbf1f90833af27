/** Output: run folders written whole or not at all, read back, and merged from shards. */

export type { Lines } from './background.js';
export { jsonText, writeFileAtomic } from './files.js';
export { checkOut, type LineFile, manifestHas, writeWhole, writeWholeAsync } from './folder.js';
export { guardOutput } from './guard.js';
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
export { type ProgressOptions, type ProgressSink, progressLine } from './progress.js';
export { RUN_FILES, RUN_MARKS, readRows, reportFiles } from './run-folder.js';
export { RunWriter, type Vet } from './run-writer.js';
