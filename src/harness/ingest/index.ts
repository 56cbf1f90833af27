/** Ingest: a git repository's history as a corpus, and a working tree's pool for one task (pack). */

export { openRepository } from './git.js';
export { ingest } from './ingest.js';
export { reasonList, sizeLine, sweBenchLines } from './ingest-summary.js';
export { ingestedCorpus } from './ingested-corpus.js';
export { packContext } from './pack-run.js';
export { PACK_FORMATS, type PackFormat } from './render.js';
export { ingestSweBench } from './swe-ingest.js';
