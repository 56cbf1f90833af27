/** Generate: synthetic cases and corpora (with ledgers and exact-certified outcomes) from a seed. */

export { generateCase } from './case-records.js';
export { generateRun } from './generate-run.js';
