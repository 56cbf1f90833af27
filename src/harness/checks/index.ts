/** Checks against published data: golden conformance, verify against the published run, structural diffs. */

export { type CheckInputs, checkCompilation, type Problem, type StoredCompilation } from './compilation.js';
export { type ConformanceDetail, type ConformanceReport, runConformance } from './conformance.js';
export { firstDifference } from './diff.js';
export { verifyRows } from './verify.js';
