/** Output: run folders written whole or not at all, read back, and merged from shards. */
export { jsonText, writeFileAtomic } from './files.js';
export { checkOut, FolderWriter, forEachLine, LineFile, writeWhole } from './folder.js';
export { mergeShards } from './merge.js';
export {
  corpusDigest,
  corpusNameOf,
  derivedFiles,
  type ManifestFacts,
  manifestOf,
  RUN_MARKS,
  RunWriter,
  readRows,
  reportTitle,
  rowsCsv,
  writeRows,
} from './run-folder.js';
