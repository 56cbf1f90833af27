/**
 * Relevance on ingested corpora: the chance that the task needs the file, from a conditional logit
 * over the signals of relevance-features.ts (issue 49). A file's score is `w·x`; its share of the
 * task is the softmax of the scores over the state's files, so each file is weighed against the
 * others of its task and not alone: a clearly named file takes the share its neighbours lose. The
 * share is the chance itself: the model's probability that this file is the one the task needs, so
 * that a task's chances sum to one and a bundle's sum is the chance that it holds the needed file.
 * (A per-file calibration, logistic(a + b log share), was tried and dropped: its values sum to the
 * expected count of needed files held, which a bundle of many small unlikely files can raise
 * without the one the task needs; out of fold the compiler's optimum then held the gold file whole
 * less often than top-k on the same ranking, and with shares it does not.) The weights are fitted on SWE-bench Lite
 * (`npm run fit:relevance`, scripts/fit-relevance.mjs) and committed beside this module with how
 * well they are calibrated on the repositories they were not fitted on; docs/real-data.md prints
 * them. Nothing else decides a file's relevance.
 */
import { FEATURES } from './relevance-features.js';
import model from './relevance-model.json' with { type: 'json' };

/** The committed model: one weight per feature, in FEATURES order, and the ingest policy's floor. */
export interface RelevanceModel {
  readonly features: readonly string[];
  readonly weights: readonly number[];
  /** The ingest policy's relevance floor: the power of ten under all but 1% of gold files' out-of-fold chances. */
  readonly floor: number;
}

/** The model as committed, checked against the features this build computes. */
export const RELEVANCE_MODEL: RelevanceModel = model;
if (
  RELEVANCE_MODEL.features.length !== FEATURES.length ||
  RELEVANCE_MODEL.features.some((f, i) => f !== FEATURES[i]) ||
  RELEVANCE_MODEL.weights.length !== FEATURES.length
)
  throw new Error('relevance-model.json: its features are not those of relevance-features.ts');

/** Significant digits a chance is written with: enough to order files, few enough to keep bytes stable across platforms' last bits. */
const DIGITS = 4;

/** A number kept to DIGITS significant digits (candidates carry relevance as data). */
export const rounded = (x: number): number => (x > 0 ? Number(x.toPrecision(DIGITS)) : 0);

/** The log of each file's share of its task: the log-softmax of `w·x` over the state's files. */
export function logShares(
  xs: readonly ArrayLike<number>[],
  weights: readonly number[] = RELEVANCE_MODEL.weights,
): number[] {
  const z = xs.map((x) => {
    let s = 0;
    for (let i = 0; i < weights.length; i++) s += (weights[i] as number) * (x[i] as number);
    return s;
  });
  const top = z.reduce((a, b) => Math.max(a, b), Number.NEGATIVE_INFINITY);
  let sum = 0;
  for (const v of z) sum += Math.exp(v - top);
  const log = top + Math.log(sum);
  return z.map((v) => v - log);
}

/** Each file's chance that the task needs it, the files being every file of one state, in order. */
export function chancesOf(xs: readonly ArrayLike<number>[], m: RelevanceModel = RELEVANCE_MODEL): number[] {
  return logShares(xs, m.weights).map(Math.exp);
}
