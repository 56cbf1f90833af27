/** Generate: synthetic cases and corpora (with ledgers and exact-certified outcomes) from a seed. */
export { generateCase } from './case.js';
export type { GeneratedCase } from './finish.js';
export { type CorpusSpec, caseName, GENERATED_MARKS, writeCase, writeCorpus } from './write.js';
