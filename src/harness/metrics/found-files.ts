/**
 * The measures of the localization benchmarks (SWE-bench's retrieval setting and its kin), over
 * one strategy's rows of a corpus whose ledger names files (ingest, SWE-bench): the must content
 * is the files the fix changed, those the pool cannot hold included. Each of the paper's three
 * (Jimenez et al., ICLR 2024, Table 3) is given twice:
 *
 * - full text: a file counts as found only when the bundle holds it in the ledger's sufficient form,
 *   its whole text (the row's `must_sufficient_recall`), as the paper's context holds whole files;
 * - any form: an outline or a bare path counts too (the row's `must_recall`), so that a path list
 *   is seen for what it is: it finds every file in this sense and none in the other.
 *
 * Avg: the mean share of the files found, over the cells where a bundle is expected (a refusal
 * scores 0). All: the share of those cells whose bundle holds every file. Any: holds at least one.
 * Beside them: must token share (the share of a bundle's tokens that are the files' text, any form,
 * the mean over bundles), the median rank of the first file in the strategy's own ranking (for a
 * strategy that publishes one, `extras.ranked`), file accuracy at 1, 3 and 5 of that ranking (the
 * share of cells whose ranking holds every changed file within its first k, as SweRank's Table 1
 * counts it), file precision (of the files a bundle holds, the share that changed; the task is not
 * a file) and the mean rendered tokens of a bundle.
 */
import type { Row } from '../types.js';
import { INGESTED_TASK_ID } from '../vocabulary.js';
import { cellKey } from './against-exact.js';
import { scoredRows } from './samples.js';
import { lowerMedian, mean } from './stats.js';

/** Avg, All and Any of one sense of "found". */
export interface Found {
  readonly avg: number | null;
  readonly all: number | null;
  readonly any: number | null;
}

export interface LocalizationFigures {
  readonly fullText: Found;
  readonly anyForm: Found;
  readonly must_token_share: number | null;
  /**
   * The median over bundles (the lower one of an even count) of the rank of the first changed
   * file in the strategy's ranking: Infinity when that median bundle's ranking holds none; null
   * when the strategy published no ranking.
   */
  readonly first_rank: number | null;
  /**
   * File accuracy at 1, 3 and 5: over the expected cells whose row measured the strategy's
   * ranking, the share where every changed file is within its first k (a file outside the pool
   * never is); null when the strategy published no ranking.
   */
  readonly acc_at_1: number | null;
  readonly acc_at_3: number | null;
  readonly acc_at_5: number | null;
  readonly file_precision: number | null;
  readonly mean_tokens: number | null;
  readonly refusals: number;
  /** Cells where a bundle is expected: what Avg, All and Any are over. */
  readonly expected: number;
  /**
   * Over those cells, the relevance the bundles earn (the audit's objective, a refusal 0): where
   * relevance is the chance that a file is needed times the share of its text a form holds, the
   * needed files' text the bundles should hold, to set beside what they held (`held_full_text`,
   * `held_any_form`).
   */
  readonly expected_held: number | null;
  /** Needed files the bundles held in full text, and in any form, over the same cells. */
  readonly held_full_text: number;
  readonly held_any_form: number;
}

/**
 * Must files the row's bundle holds, given the share of them it holds (any form: `must_recall`; in
 * full text: `must_sufficient_recall`): the share times the must total, rounded (both are exact).
 */
const held = (r: Row, share: number | null | undefined): number =>
  Math.round((share ?? 0) * (r.must_total ?? 0));
const mustHeld = (r: Row): number => held(r, r.must_recall);

/** Avg, All and Any of the share each cell found (a refusal's 0), over the cells given. */
function found(shares: readonly number[]): Found {
  const rate = (yes: (x: number) => boolean) =>
    shares.length === 0 ? null : shares.filter(yes).length / shares.length;
  return { avg: mean(shares), all: rate((x) => x === 1), any: rate((x) => x > 0) };
}

/** The scored cells where a bundle is expected and the ledger names needed files: what Avg, All and Any are over. */
const expectedCells = (rows: readonly Row[]): Row[] =>
  scoredRows(rows).filter((r) => r.expected.success && (r.must_total ?? 0) > 0);

/**
 * The share of each expected cell's needed files its bundle holds in full text (a refusal's 0), in
 * the order of `cells`; null for a run written before ctxbench measured the sufficient form, which
 * says nothing of it (not 0).
 */
function fullTextShares(cells: readonly Row[]): number[] | null {
  if (cells.some((r) => r.success && r.measures?.must_sufficient_recall === undefined)) return null;
  return cells.map((r) => (r.success ? (r.measures?.must_sufficient_recall ?? 0) : 0));
}

/**
 * Per expected cell (`cellKey`: case and budget), whether its bundle holds every needed file in
 * full text: the outcome whose share is All in full text, paired cell by cell when two strategies
 * are tested against each other (standings.ts). Null where `fullTextShares` is.
 */
export function wholeByCell(rows: readonly Row[]): ReadonlyMap<string, boolean> | null {
  const cells = expectedCells(rows);
  const shares = fullTextShares(cells);
  return shares === null ? null : new Map(cells.map((r, k) => [cellKey(r), shares[k] === 1]));
}

export function localizationOf(rows: readonly Row[]): LocalizationFigures {
  const scored = scoredRows(rows);
  const feasible = expectedCells(rows);
  const bundles = scored.filter((r) => r.success);
  const precision = bundles.flatMap((r) => {
    const files = r.admitted.filter((id) => id !== INGESTED_TASK_ID).length;
    return files === 0 ? [] : [mustHeld(r) / files];
  });
  const measured = bundles.flatMap((r) => (r.measures ? [r.measures] : []));
  const whole = fullTextShares(feasible);
  const ranks = feasible.flatMap((r) =>
    typeof r.measures?.ranked_all_must_rank === 'number' ? [r.measures.ranked_all_must_rank] : [],
  );
  const accuracy = (k: number) =>
    ranks.length === 0 ? null : ranks.filter((rank) => rank >= 1 && rank <= k).length / ranks.length;
  return {
    fullText: whole === null ? { avg: null, all: null, any: null } : found(whole),
    anyForm: found(feasible.map((r) => (r.success ? (r.must_recall ?? 0) : 0))),
    must_token_share: mean(
      measured.flatMap((m) => (m.must_token_share === undefined ? [] : [m.must_token_share])),
    ),
    // A rank is 1 / rr; a ranking without the files (rr 0) ranks past every other.
    first_rank: lowerMedian(
      measured.flatMap((m) =>
        m.ranked_must_rr == null
          ? []
          : [m.ranked_must_rr === 0 ? Number.POSITIVE_INFINITY : Math.round(1 / m.ranked_must_rr)],
      ),
    ),
    acc_at_1: accuracy(1),
    acc_at_3: accuracy(3),
    acc_at_5: accuracy(5),
    file_precision: mean(precision),
    mean_tokens: mean(bundles.map((r) => r.rendered_tokens)),
    refusals: scored.filter((r) => !r.success).length,
    expected: feasible.length,
    expected_held: feasible.some((r) => r.success && r.audit === null)
      ? null
      : feasible.reduce(
          (s, r) =>
            s + (r.success && r.audit ? r.audit.objective.preferred + r.audit.objective.discretionary : 0),
          0,
        ),
    held_full_text: feasible.reduce(
      (s, r) => s + (r.success ? held(r, r.measures?.must_sufficient_recall) : 0),
      0,
    ),
    held_any_form: feasible.reduce((s, r) => s + (r.success ? mustHeld(r) : 0), 0),
  };
}
