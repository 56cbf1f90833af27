/** Generate: synthetic cases and corpora (with ledgers and exact-certified outcomes) from a seed. */

export { generateCase } from './case-records.js';
export { GENERATED_MARKS, generatedCorpus, writeCase, writeCorpus } from './write-case.js';
