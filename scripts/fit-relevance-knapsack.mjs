// compiler-v2's choice simulated on full texts for scripts/fit-relevance-eval.mjs (issue 49): the
// set of files with the greatest sum of chance within the room, found exactly (up to buckets)
// rather than by chance per token, so that the out-of-fold "knapsack" figures are the optimum's.
import { order } from './fit-relevance-eval.mjs';

/** Files the exact knapsack weighs: the likeliest, as compiler-v2's candidates after its floor are few. */
const KNAPSACK_FILES = 200;
/** Buckets the room is counted in: a file's tokens are rounded up to one, so a chosen set always fits. */
const BUCKETS = 1_000;

/**
 * The files compiler-v2 would take whole: the set of the KNAPSACK_FILES likeliest (chance >= 0)
 * with the greatest sum of chance within `room` tokens, as indices of the case's files: the
 * knapsack over every form below, each file offered as its full text alone.
 */
export function exactKnapsack(c, chance, room) {
  const fullOnly = new Map(c.paths.map((p, i) => [p, { full: c.tokens[i] }]));
  const whole = formsKnapsack(c, chance, room, fullOnly);
  return new Set(c.paths.flatMap((p, i) => (whole.has(p) ? [i] : [])));
}

/**
 * The knapsack, as compiler-v2 weighs forms (a file's tokens are rounded up to a bucket, so a chosen
 * set always fits; ties keep the likelier files chosen first): at most one form of each of the
 * KNAPSACK_FILES likeliest files, a form earning the file's chance times the share of the full
 * text's tokens it carries (the ingest's formShare), the set with the greatest sum within `room`
 * by dynamic programming over BUCKETS buckets. `forms` maps a path to its forms' tokens
 * ({ full, outline, reference }, as the case's candidates give them). The paths whose full text
 * the optimum holds.
 */
export function formsKnapsack(c, chance, room, forms) {
  if (room <= 0) return new Set();
  const unit = Math.ceil(room / BUCKETS);
  const cap = Math.floor(room / unit);
  const items = order(c, chance)
    .filter((i) => chance[i] >= 0 && forms.has(c.paths[i]))
    .slice(0, KNAPSACK_FILES)
    .map((i) => {
      const tokens = forms.get(c.paths[i]);
      const options = Object.entries(tokens)
        .map(([form, t]) => ({
          full: form === 'full',
          w: Math.ceil(Math.max(1, t) / unit),
          v: form === 'full' ? chance[i] : chance[i] * Math.min(1, t / Math.max(1, tokens.full ?? t)),
        }))
        .filter((o) => o.w <= cap && o.v > 0);
      return { i, options };
    });
  let best = new Float64Array(cap + 1);
  const took = items.map((it) => {
    const next = Float64Array.from(best);
    const pick = new Int8Array(cap + 1).fill(-1);
    it.options.forEach((o, k) => {
      for (let r = cap; r >= o.w; r--) {
        const v = best[r - o.w] + o.v;
        // Strictly better only, as above: the result is deterministic.
        if (v > next[r]) {
          next[r] = v;
          pick[r] = k;
        }
      }
    });
    best = next;
    return pick;
  });
  const whole = new Set();
  let r = cap;
  for (let k = items.length - 1; k >= 0; k--) {
    const o = items[k].options[took[k][r]];
    if (o === undefined) continue;
    if (o.full) whole.add(c.paths[items[k].i]);
    r -= o.w;
  }
  return whole;
}
