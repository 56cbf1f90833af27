/**
 * Relevance on ingested corpora: the chance that the task needs the file, from a logistic
 * regression over the signals of relevance-features.ts. The weights are fitted on a development
 * split (`npm run fit:relevance`, scripts/fit-relevance.mjs) and committed beside this module with
 * what they were fitted on and how well they are calibrated on the cases they were not fitted on;
 * docs/real-data.md prints them. Nothing else decides a file's relevance.
 */
import { FEATURES } from './relevance-features.js';
import model from './relevance-model.json' with { type: 'json' };

/** The committed model: an intercept and one weight per feature, in FEATURES order. */
export interface RelevanceModel {
  readonly features: readonly string[];
  readonly intercept: number;
  readonly weights: readonly number[];
  /** The ingest policy's relevance floor: a tenth of the development split's base rate. */
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

/** The model's chance that a file with features `x` is needed, in [0, 1]. */
export function chanceOf(x: ArrayLike<number>, m: RelevanceModel = RELEVANCE_MODEL): number {
  let z = m.intercept;
  for (let i = 0; i < m.weights.length; i++) z += (m.weights[i] as number) * (x[i] as number);
  return 1 / (1 + Math.exp(-z));
}
