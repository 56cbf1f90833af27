/** Ingest: a git repository's history as a corpus, and a working tree's pool for one task (pack). */

export { ingestRun } from './ingest-run.js';
export { REQUIRE_MEANING } from './pack.js';
export { cacheDirOf } from './pack-cache-folder.js';
export { packContext } from './pack-run.js';
export { PACK_FORMATS, type PackFormat } from './render.js';
