/** Ingest: a git repository's history as a corpus, and a working tree's pool for one task (pack). */
export { openRepository } from './git.js';
export { INGEST_MARKS, ingest, ingestedCorpus } from './ingest.js';
export { packPool } from './pack.js';
export { leftOut, PACK_FORMATS, type PackFormat, renderPack } from './render.js';
