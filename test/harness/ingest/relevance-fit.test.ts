/**
 * Fitting and checking the relevance model: the fit finds weights it was not told, the split is
 * fixed and balanced, and the calibration table tells a calibrated model from a wrong one.
 */
import seedrandom from 'seedrandom';
import { describe, expect, it } from 'vitest';
import { calibration, fitLogistic } from '../../../src/harness/ingest/relevance/relevance-fit.js';
import { chanceOf } from '../../../src/harness/ingest/relevance/relevance-model.js';
import { heldOut } from '../../../src/harness/relevance-split.js';

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

describe('the split', () => {
  it('holds out about half the cases, the same ones every time, whatever their names look like', () => {
    const names = Array.from({ length: 2_000 }, (_, i) => `sympy__sympy-${10_000 + i}`);
    const held = names.filter(heldOut);
    expect(held.length).toBeGreaterThan(900);
    expect(held.length).toBeLessThan(1_100);
    expect(names.filter(heldOut)).toEqual(held);
    // Neighbouring ids are not held out together.
    const runs = names.slice(1).filter((n, i) => heldOut(n) === heldOut(names[i] as string)).length;
    expect(runs / names.length).toBeLessThan(0.6);
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

describe('chanceOf', () => {
  it('is the logistic of the intercept plus the weighted features', () => {
    const m = { features: ['a', 'b'], intercept: -2, weights: [0.5, 3], floor: 0 };
    expect(chanceOf([2, 1], m)).toBeCloseTo(sigmoid(-2 + 1 + 3), 15);
    expect(chanceOf([0, 0], m)).toBeCloseTo(sigmoid(-2), 15);
  });
});
