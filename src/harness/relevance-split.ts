/**
 * The split of ingested cases into those the relevance model is fitted on (development) and those
 * it is checked on (held out), fixed before any fit: a case is held out when the first byte of the
 * SHA-256 of `relevance-split:<case>` is odd. About half the cases, the same on every machine, and
 * independent of a case's repository, size or outcome. The findings' `RUN@held-out` views
 * (report/findings-page.ts) read it here. The relevance model fitted before issue 49 was fitted on
 * the development half; the present one is fitted on every SWE-bench Lite instance, its figures
 * out of fold by repository (scripts/fit-relevance.mjs), so these halves no longer say which
 * cases it saw.
 */
import { createHash } from 'node:crypto';

export const heldOut = (caseName: string): boolean =>
  ((createHash('sha256').update(`relevance-split:${caseName}`).digest()[0] as number) & 1) === 1;

/** The halves, as the findings name them after a run's name (`swe-bench-lite@held-out`). */
export const SPLIT_VIEWS = { 'held-out': true, development: false } as const;
