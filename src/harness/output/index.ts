/** Output: run folders written whole or not at all, read back, and merged from shards. */
export { jsonText, writeFileAtomic } from './files.js';
export {
  alive,
  checkOut,
  FolderWriter,
  forEachLine,
  LineFile,
  writeWhole,
  writeWholeAsync,
} from './folder.js';
export { mergeShards } from './merge.js';
export {
  corpusDigest,
  corpusNameOf,
  derivedFiles,
  type ManifestFacts,
  manifestOf,
  RUN_MARKS,
  readRows,
  reportFiles,
  reportTitle,
  rowsCsv,
  writeDerived,
  writeRows,
} from './run-folder.js';
export { type CellAt, type RunIdentity, RunWriter } from './run-writer.js';
