/**
 * Fitting and checking the relevance model: the fits find weights they were not told (the
 * logistic, and the conditional logit over a task's files), the split is fixed and balanced, and
 * the calibration table tells a calibrated model from a wrong one.
 */
import seedrandom from 'seedrandom';
import { describe, expect, it } from 'vitest';
import {
  calibration,
  fitConditional,
  fitLogistic,
} from '../../../src/harness/ingest/relevance/relevance-fit.js';
import { chancesOf, logShares } from '../../../src/harness/ingest/relevance/relevance-model.js';

const SEED = 'relevance-fit-20261203';
const sigmoid = (z: number): number => 1 / (1 + Math.exp(-z));

/** Examples drawn from a known logistic model: a rare outcome, as needed files are. */
function drawn(n: number, intercept: number, weights: readonly number[]) {
  const rng = seedrandom(SEED);
  return Array.from({ length: n }, () => {
    const x = [rng() < 0.1 ? 1 : 0, rng() * 4 - 2];
    const p = sigmoid(intercept + weights.reduce((s, w, i) => s + w * (x[i] as number), 0));
    return { x, needed: rng() < p, p };
  });
}

describe('fitLogistic', () => {
  it('recovers the weights of the model that drew the data', () => {
    const data = drawn(40_000, -4, [3, 1.2]);
    const fit = fitLogistic(data, 1e-6);
    expect(fit.intercept).toBeCloseTo(-4, 0);
    expect(fit.weights[0]).toBeCloseTo(3, 0);
    expect(fit.weights[1]).toBeCloseTo(1.2, 0);
    expect(Math.abs((fit.weights[1] as number) - 1.2)).toBeLessThan(0.15);
    expect(fit.steps).toBeLessThan(100);
  });

  it('the ridge pulls a weight the data cannot pin towards zero, never the intercept', () => {
    // A feature that is 1 on two examples, both needed: unpenalised, its weight runs away.
    const data = [
      ...Array.from({ length: 200 }, (_, i) => ({ x: [0], needed: i < 20 })),
      { x: [1], needed: true },
      { x: [1], needed: true },
    ];
    const fit = fitLogistic(data, 1);
    expect(Number.isFinite(fit.weights[0])).toBe(true);
    expect(fit.weights[0]).toBeLessThan(3);
    expect(sigmoid(fit.intercept)).toBeCloseTo(20 / 200, 1);
  });

  it('is deterministic to the bit', () => {
    const data = drawn(2_000, -2, [1, -1]);
    expect(fitLogistic(data)).toEqual(fitLogistic(data));
  });
});

describe('calibration', () => {
  it('a calibrated model: observed near predicted in every well-filled bin; expected near the count', () => {
    const data = drawn(60_000, -3, [2.5, 1]);
    const c = calibration(data.map((d) => ({ p: d.p, needed: d.needed })));
    expect(c.files).toBe(60_000);
    expect(Math.abs(c.expected - c.needed) / c.needed).toBeLessThan(0.05);
    for (const b of c.bins.filter((b) => b.files >= 2_000))
      expect(Math.abs(b.observed - b.predicted), `${b.from}-${b.to}`).toBeLessThan(0.02);
    expect(c.logLoss).toBeLessThan(c.baseLogLoss);
    expect(c.bins.reduce((s, b) => s + b.files, 0)).toBe(60_000);
  });

  it('a model that says twice the chance shows it in every bin, and the base rate has its own loss', () => {
    const data = drawn(60_000, -3, [2.5, 1]);
    const c = calibration(data.map((d) => ({ p: Math.min(1, d.p * 2), needed: d.needed })));
    expect(c.expected).toBeGreaterThan(1.8 * c.needed);
    const filled = c.bins.filter((b) => b.files >= 2_000 && b.from >= 0.01);
    expect(filled.length).toBeGreaterThan(0);
    for (const b of filled) expect(b.predicted).toBeGreaterThan(1.5 * b.observed);
    const base = c.needed / c.files;
    const flat = calibration(data.map((d) => ({ p: base, needed: d.needed })));
    expect(flat.logLoss).toBeCloseTo(flat.baseLogLoss, 12);
  });

  it('a chance of exactly 1 falls in the last bin', () => {
    const c = calibration([{ p: 1, needed: true }]);
    expect(c.bins.at(-1)?.files).toBe(1);
  });
});

describe('fitConditional', () => {
  /** Tasks of 40 files each, one of them needed, drawn by the softmax of `w·x` over the task's files. */
  function tasks(n: number, weights: readonly number[]) {
    const rng = seedrandom(`${SEED}-conditional`);
    return Array.from({ length: n }, () => {
      const rows = Array.from({ length: 40 }, () => [rng() < 0.1 ? 1 : 0, rng() * 4 - 2]);
      const z = rows.map((x) => weights.reduce((s, w, i) => s + w * (x[i] as number), 0));
      const sum = z.reduce((s, v) => s + Math.exp(v), 0);
      const u = rng() * sum;
      let pick = 0;
      for (let acc = Math.exp(z[0] as number); acc < u && pick < rows.length - 1; )
        acc += Math.exp(z[++pick] as number);
      return { rows, needed: rows.map((_, i) => i === pick) };
    });
  }

  it('recovers the weights of the softmax that drew the tasks, and gives the same bits twice', () => {
    const data = tasks(3_000, [2.5, 1]);
    const fit = fitConditional(data, 1e-6);
    expect(fit.weights[0]).toBeCloseTo(2.5, 0);
    expect(fit.weights[1]).toBeCloseTo(1, 0);
    expect(fitConditional(data, 1e-6).weights).toEqual(fit.weights);
  });

  it('a constant feature gets no weight: it cancels within a task', () => {
    const data = tasks(300, [2, 1]).map((t) => ({ ...t, rows: t.rows.map((x) => [...x, 7]) }));
    expect(Math.abs(fitConditional(data, 1).weights[2] as number)).toBeLessThan(1e-6);
  });
});

describe('chancesOf', () => {
  it("is each file's share of the softmax, summing to one over the task", () => {
    const m = { features: ['a', 'b'], weights: [0.5, 3], floor: 0 };
    const xs = [
      [2, 1],
      [0, 0],
      [1, 0],
    ];
    const z = xs.map((x) => 0.5 * (x[0] as number) + 3 * (x[1] as number));
    const sum = z.reduce((s, v) => s + Math.exp(v), 0);
    const shares = logShares(xs, m.weights);
    chancesOf(xs, m).forEach((p, i) => {
      expect(shares[i]).toBeCloseTo((z[i] as number) - Math.log(sum), 12);
      expect(p).toBeCloseTo(Math.exp(z[i] as number) / sum, 12);
    });
    expect(chancesOf(xs, m).reduce((a, b) => a + b, 0)).toBeCloseTo(1, 12);
  });

  it('a file far ahead of the others takes nearly all the share, whatever the scores are', () => {
    const shares = logShares([[1000], [0], [0]], [1]);
    expect(Math.exp(shares[0] as number)).toBeCloseTo(1, 12);
    expect(Number.isFinite(shares[1])).toBe(true);
  });
});
