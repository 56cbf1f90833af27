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
 * with the greatest sum of chance within `room` tokens, by dynamic programming over BUCKETS
 * buckets of the room (exact up to the rounding of each file's tokens up to a bucket).
 */
export function exactKnapsack(c, chance, room) {
  if (room <= 0) return new Set();
  const unit = Math.ceil(room / BUCKETS);
  const cap = Math.floor(room / unit);
  const items = order(c, chance)
    .filter((i) => chance[i] >= 0)
    .slice(0, KNAPSACK_FILES)
    .map((i) => ({ i, w: Math.ceil(Math.max(1, c.tokens[i]) / unit), v: chance[i] }))
    .filter((it) => it.w <= cap);
  const best = new Float64Array(cap + 1);
  const took = items.map(() => new Uint8Array(cap + 1));
  items.forEach((it, k) => {
    for (let r = cap; r >= it.w; r--) {
      const v = best[r - it.w] + it.v;
      // Strictly better only: ties keep the likelier files chosen first, so the result is deterministic.
      if (v > best[r]) {
        best[r] = v;
        took[k][r] = 1;
      }
    }
  });
  const out = new Set();
  let r = cap;
  for (let k = items.length - 1; k >= 0; k--)
    if (took[k][r] === 1) {
      out.add(items[k].i);
      r -= items[k].w;
    }
  return out;
}

/**
 * The knapsack over every form, as compiler-v2 weighs them: at most one form of each of the
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
          v: chance[i] * Math.min(1, t / Math.max(1, tokens.full ?? t)),
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
