/**
 * Fitting the relevance model, and saying how good it is: the conditional logit over a task's files
 * (relevance-model.ts) and the logistic regression that turns a share into a chance, both by
 * Newton's method with a ridge on the weights, and calibration by bins of predicted chance.
 * Used by scripts/fit-relevance.mjs; nothing at ingest time fits anything.
 */

/** One file of one case: its features and whether the case needed it. */
export interface Example {
  readonly x: ArrayLike<number>;
  readonly needed: boolean;
}

export interface Fit {
  readonly intercept: number;
  readonly weights: number[];
  /** Newton steps taken (at most `iterations`). */
  readonly steps: number;
}

/** Solve `a x = b` for a small dense system (Gaussian elimination, partial pivoting); `a` is overwritten. */
function solve(a: number[][], b: number[]): number[] {
  const n = b.length;
  for (let col = 0; col < n; col++) {
    let pivot = col;
    for (let r = col + 1; r < n; r++)
      if (Math.abs((a[r] as number[])[col] as number) > Math.abs((a[pivot] as number[])[col] as number))
        pivot = r;
    [a[col], a[pivot]] = [a[pivot] as number[], a[col] as number[]];
    [b[col], b[pivot]] = [b[pivot] as number, b[col] as number];
    const row = a[col] as number[];
    const d = row[col] as number;
    if (Math.abs(d) < 1e-300) throw new Error('fitLogistic: the system is singular');
    for (let r = col + 1; r < n; r++) {
      const other = a[r] as number[];
      const f = (other[col] as number) / d;
      if (f === 0) continue;
      for (let c = col; c < n; c++) other[c] = (other[c] as number) - f * (row[c] as number);
      b[r] = (b[r] as number) - f * (b[col] as number);
    }
  }
  const x = new Array<number>(n).fill(0);
  for (let r = n - 1; r >= 0; r--) {
    const row = a[r] as number[];
    let s = b[r] as number;
    for (let c = r + 1; c < n; c++) s -= (row[c] as number) * (x[c] as number);
    x[r] = s / (row[r] as number);
  }
  return x;
}

/**
 * The weights maximising the log-likelihood of `examples` less `ridge`/2 times the squared weights
 * (the intercept free): Newton's method from zero, at most `iterations` steps, stopping when no
 * coefficient moves by more than 1e-10. Deterministic: the same examples in the same order give
 * the same bits.
 */
export function fitLogistic(examples: readonly Example[], ridge = 1, iterations = 100): Fit {
  const first = examples[0];
  if (first === undefined) throw new Error('fitLogistic: no examples');
  const k = first.x.length + 1;
  const beta = new Array<number>(k).fill(0);
  let steps = 0;
  for (; steps < iterations; ) {
    const grad = new Array<number>(k).fill(0);
    const hess = Array.from({ length: k }, () => new Array<number>(k).fill(0));
    const row = new Array<number>(k).fill(1);
    for (const e of examples) {
      for (let i = 1; i < k; i++) row[i] = e.x[i - 1] as number;
      let z = 0;
      for (let i = 0; i < k; i++) z += (beta[i] as number) * (row[i] as number);
      const p = 1 / (1 + Math.exp(-z));
      const w = p * (1 - p);
      const r = (e.needed ? 1 : 0) - p;
      for (let i = 0; i < k; i++) {
        const xi = row[i] as number;
        grad[i] = (grad[i] as number) + r * xi;
        if (xi === 0) continue;
        const h = hess[i] as number[];
        for (let j = i; j < k; j++) h[j] = (h[j] as number) + w * xi * (row[j] as number);
      }
    }
    for (let i = 0; i < k; i++) {
      const h = hess[i] as number[];
      for (let j = 0; j < i; j++) h[j] = (hess[j] as number[])[i] as number;
      if (i > 0) {
        h[i] = (h[i] as number) + ridge;
        grad[i] = (grad[i] as number) - ridge * (beta[i] as number);
      }
    }
    const step = solve(hess, grad);
    steps++;
    let moved = 0;
    for (let i = 0; i < k; i++) {
      beta[i] = (beta[i] as number) + (step[i] as number);
      moved = Math.max(moved, Math.abs(step[i] as number));
    }
    if (moved < 1e-10) break;
  }
  return { intercept: beta[0] as number, weights: beta.slice(1), steps };
}

/** One task's files: their features, and which of them the task needed. */
export interface Group {
  readonly rows: readonly ArrayLike<number>[];
  readonly needed: readonly boolean[];
}

/** Log-likelihood of the needed files under the softmax of `w·x` within each group, less the ridge. */
function conditionalObjective(groups: readonly Group[], w: readonly number[], ridge: number): number {
  let ll = 0;
  for (const g of groups) {
    const z = g.rows.map((x) => w.reduce((s, wi, i) => s + wi * (x[i] as number), 0));
    const top = z.reduce((a, b) => Math.max(a, b), Number.NEGATIVE_INFINITY);
    const lse = top + Math.log(z.reduce((s, v) => s + Math.exp(v - top), 0));
    g.needed.forEach((y, i) => {
      if (y) ll += (z[i] as number) - lse;
    });
  }
  return ll - (ridge / 2) * w.reduce((s, v) => s + v * v, 0);
}

/**
 * The conditional logit (McFadden's): P(file i | task) is the softmax of `w·x_i` over the task's
 * files, each needed file of a task a choice of its own. Newton's method from zero, the step
 * halved while it lowers the penalised likelihood, at most `iterations` steps, stopping when no
 * weight moves by more than 1e-9. No intercept: it cancels within a task. Deterministic.
 */
export function fitConditional(groups: readonly Group[], ridge = 1, iterations = 50): Fit {
  const k = groups.find((g) => g.rows.length > 0)?.rows[0]?.length ?? 0;
  if (k === 0) throw new Error('fitConditional: no examples');
  let w = new Array<number>(k).fill(0);
  let steps = 0;
  let objective = conditionalObjective(groups, w, ridge);
  for (; steps < iterations; steps++) {
    const grad = w.map((v) => -ridge * v);
    const hess = Array.from({ length: k }, (_, i) =>
      Array.from({ length: k }, (_, j) => (i === j ? ridge : 0)),
    );
    for (const g of groups) {
      const chosen = g.needed.filter((y) => y).length;
      if (chosen === 0) continue;
      const z = g.rows.map((x) => w.reduce((s, wi, i) => s + wi * (x[i] as number), 0));
      const top = z.reduce((a, b) => Math.max(a, b), Number.NEGATIVE_INFINITY);
      const e = z.map((v) => Math.exp(v - top));
      const sum = e.reduce((a, b) => a + b, 0);
      const mean = new Array<number>(k).fill(0);
      const second = Array.from({ length: k }, () => new Array<number>(k).fill(0));
      g.rows.forEach((x, r) => {
        const p = (e[r] as number) / sum;
        if (p < 1e-300) return;
        for (let i = 0; i < k; i++) {
          const xi = x[i] as number;
          if (xi === 0) continue;
          mean[i] = (mean[i] as number) + p * xi;
          const row = second[i] as number[];
          for (let j = i; j < k; j++) row[j] = (row[j] as number) + p * xi * (x[j] as number);
        }
        if (g.needed[r]) for (let i = 0; i < k; i++) grad[i] = (grad[i] as number) + (x[i] as number);
      });
      for (let i = 0; i < k; i++) {
        grad[i] = (grad[i] as number) - chosen * (mean[i] as number);
        for (let j = i; j < k; j++) {
          const c =
            chosen * (((second[i] as number[])[j] as number) - (mean[i] as number) * (mean[j] as number));
          (hess[i] as number[])[j] = ((hess[i] as number[])[j] as number) + c;
          if (j !== i) (hess[j] as number[])[i] = ((hess[j] as number[])[i] as number) + c;
        }
      }
    }
    const step = solve(hess, grad);
    let t = 1;
    let next = w.map((v, i) => v + t * (step[i] as number));
    let value = conditionalObjective(groups, next, ridge);
    while (value < objective && t > 1e-6) {
      t /= 2;
      next = w.map((v, i) => v + t * (step[i] as number));
      value = conditionalObjective(groups, next, ridge);
    }
    const moved = step.reduce((m, v) => Math.max(m, Math.abs(t * v)), 0);
    w = next;
    objective = value;
    if (moved < 1e-9) {
      steps++;
      break;
    }
  }
  return { intercept: 0, weights: w, steps };
}

/** Edges of the calibration bins: tenths of chance, the lowest tenth split at 0.001 and 0.01, where nearly every file lies. */
export const CALIBRATION_EDGES = [0, 0.001, 0.01, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1] as const;

export interface CalibrationBin {
  readonly from: number;
  readonly to: number;
  readonly files: number;
  /** Mean predicted chance of the bin's files. */
  readonly predicted: number;
  /** Share of the bin's files that were needed. */
  readonly observed: number;
}

export interface Calibration {
  readonly files: number;
  readonly needed: number;
  /** Sum of predicted chances: the needed files the model expects. */
  readonly expected: number;
  /** Mean log loss per file, and that of predicting the base rate for every file. */
  readonly logLoss: number;
  readonly baseLogLoss: number;
  readonly bins: readonly CalibrationBin[];
}

const LN_FLOOR = 1e-15;
const logLossOf = (p: number, y: boolean): number => -Math.log(Math.max(LN_FLOOR, y ? p : 1 - p));

/** Predicted against observed, by bin of predicted chance, and the log loss against the base rate's. */
export function calibration(
  scored: readonly { readonly p: number; readonly needed: boolean }[],
): Calibration {
  const n = scored.length;
  const needed = scored.filter((s) => s.needed).length;
  const base = n === 0 ? 0 : needed / n;
  const sums = CALIBRATION_EDGES.slice(1).map(() => ({ files: 0, p: 0, y: 0 }));
  let expected = 0;
  let loss = 0;
  let baseLoss = 0;
  for (const { p, needed: y } of scored) {
    expected += p;
    loss += logLossOf(p, y);
    baseLoss += logLossOf(base, y);
    let b = CALIBRATION_EDGES.findIndex((e, i) => i > 0 && p < e) - 1;
    if (b < 0) b = sums.length - 1;
    const s = sums[b] as { files: number; p: number; y: number };
    s.files++;
    s.p += p;
    s.y += y ? 1 : 0;
  }
  return {
    files: n,
    needed,
    expected,
    logLoss: n === 0 ? 0 : loss / n,
    baseLogLoss: n === 0 ? 0 : baseLoss / n,
    bins: sums.map((s, i) => ({
      from: CALIBRATION_EDGES[i] as number,
      to: CALIBRATION_EDGES[i + 1] as number,
      files: s.files,
      predicted: s.files === 0 ? 0 : s.p / s.files,
      observed: s.files === 0 ? 0 : s.y / s.files,
    })),
  };
}
