/**
 * The measures of the localization benchmarks (SWE-bench's retrieval setting and its kin), over
 * one strategy's rows of an ingested corpus. The ledger's must content is the files the commit
 * changed, so:
 *
 * - file recall: the share of those files the bundle holds (any form), a refusal scoring 0, the
 *   mean over the cells where a bundle is expected;
 * - file precision: of the files the bundle holds, the share the commit changed (the task is not
 *   a file), the mean over bundles;
 * - all files held: bundles that hold every changed file, over the cells where one is expected;
 * - tokens (mean): the mean rendered tokens of a bundle.
 */
import type { Row } from '../types.js';
import { INGESTED_TASK_ID } from '../vocabulary.js';
import { scoredRows } from './catalogue.js';
import { mean } from './stats.js';

export interface LocalizationFigures {
  readonly file_recall: number | null;
  readonly file_precision: number | null;
  /** Bundles holding every changed file. */
  readonly complete: number;
  /** Cells where a bundle is expected. */
  readonly expected: number;
  readonly mean_tokens: number | null;
  readonly refusals: number;
}

/** Must files the row's bundle holds: recall times the must total, rounded (both are exact counts). */
const mustHeld = (r: Row): number => Math.round((r.must_recall ?? 0) * (r.must_total ?? 0));

export function localizationOf(rows: readonly Row[]): LocalizationFigures {
  const scored = scoredRows(rows);
  const feasible = scored.filter((r) => r.expected.success && (r.must_total ?? 0) > 0);
  const bundles = scored.filter((r) => r.success);
  const precision = bundles.flatMap((r) => {
    const files = r.admitted.filter((id) => id !== INGESTED_TASK_ID).length;
    return files === 0 ? [] : [mustHeld(r) / files];
  });
  return {
    file_recall: mean(feasible.map((r) => (r.success ? (r.must_recall ?? 0) : 0))),
    file_precision: mean(precision),
    complete: feasible.filter((r) => r.success && r.must_recall === 1).length,
    expected: feasible.length,
    mean_tokens: mean(bundles.map((r) => r.rendered_tokens)),
    refusals: scored.filter((r) => !r.success).length,
  };
}
