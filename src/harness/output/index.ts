/** Output: where a command may write, files and folders written whole or not at all, progress lines. */

export { openOwnFile, replaceFile } from './new-file.js';
export { guardOutput } from './place.js';
export { type ProgressOptions, type ProgressSink, progressLine } from './progress-line.js';
export {
  checkOut,
  FolderWriter,
  type LineFile,
  manifestHas,
  writeWhole,
  writeWholeAsync,
} from './whole-folder.js';
export { jsonText, writeFileAtomic } from './write-file.js';
