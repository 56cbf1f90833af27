/**
 * The verdict's figures on hand-made rows whose outcomes are set cell by cell: a strategy leads
 * only when it alone has the top rate and McNemar's exact test puts it above the next at 0.05; a
 * shared rate, or a difference within chance, is a tie that names every strategy in it and crowns
 * none by tokens; a run of fewer cells than a significant difference needs says it cannot
 * separate the strategies. The interval and p are checked against values worked out apart from
 * the code: Newcombe's (1998) published Wilson intervals and binomial tails summed by hand.
 */
import { describe, expect, it } from 'vitest';
import { MIN_DISCORDANT, verdictOf } from '../../../src/harness/metrics/index.js';
import { wilson } from '../../../src/harness/metrics/stats.js';
import type { Row } from '../../../src/harness/types.js';
import { measures, row } from '../../helpers/rows.js';

/** A strategy's bundle in case `kase` (one needed file): held whole or not, at `tokens`. */
const cell = (strategy: string, kase: string, whole: boolean, tokens = 1000): Row =>
  row({
    case: kase,
    strategy,
    must_total: 1,
    must_recall: whole ? 1 : 0,
    rendered_tokens: tokens,
    measures: measures({ must_sufficient_recall: whole ? 1 : 0 }),
  });

/** Cases c001, c002, …: `strategy` holds the file whole in the cases whose index `whole` accepts. */
const cells = (strategy: string, n: number, whole: (k: number) => boolean, tokens = 1000): Row[] =>
  Array.from({ length: n }, (_, k) => cell(strategy, `c${String(k + 1).padStart(3, '0')}`, whole(k), tokens));

const names = (rows: readonly Row[]) => [...new Set(rows.map((r) => r.strategy))];
const only = (rows: readonly Row[]) => {
  const v = verdictOf(rows, names(rows));
  expect(v).toHaveLength(1);
  return v[0] as NonNullable<(typeof v)[0]>;
};

describe("the test's threshold", () => {
  it('is six discordant cells at 0.05: 2/2^5 = 0.0625 is not below it, 2/2^6 = 0.03125 is', () => {
    expect(MIN_DISCORDANT).toBe(6);
  });
});

describe('the Wilson score interval, against published values', () => {
  // Newcombe, "Two-sided confidence intervals for the single proportion: comparison of seven
  // methods", Statistics in Medicine 17 (1998), Table II, method 3 (score, no continuity correction).
  it.each([
    [81, 263, 0.2553, 0.3662],
    [15, 148, 0.0624, 0.1605],
    [0, 20, 0, 0.1611],
    [1, 29, 0.0061, 0.1718],
  ])('%i of %i: %f to %f', (x, n, low, high) => {
    const r = wilson(x, n);
    expect(r.low).toBeCloseTo(low, 4);
    expect(r.high).toBeCloseTo(high, 4);
  });
});

describe('a strategy leads', () => {
  // 263 cases: `lead` holds the file whole in 81, `next` in 60; they differ in 29 cells, 25 for
  // `lead` alone and 4 for `next` alone.
  const n = 263;
  const rows = [
    ...cells('lead', n, (k) => k < 81),
    ...cells('next', n, (k) => k < 56 || (k >= 81 && k < 85)),
    ...cells('last', n, (k) => k < 10),
  ];

  it('when alone at the top and the test puts it above the next, with its interval and p', () => {
    const v = only(rows);
    expect(v.call).toBe('leads');
    expect(v.leaders.map((s) => s.name)).toEqual(['lead']);
    expect(v.leaders[0]?.whole).toMatchObject({ count: 81, of: 263 });
    // Newcombe's 81 of 263, as above.
    expect(v.leaders[0]?.whole.low).toBeCloseTo(0.2553, 4);
    expect(v.leaders[0]?.whole.high).toBeCloseTo(0.3662, 4);
    expect(v.next?.name).toBe('next');
    expect(v.test).toMatchObject({ a: 'lead', b: 'next', cells: 263, aOnly: 25, bOnly: 4 });
    // Two-sided: 2 P(X <= 4), X ~ Binomial(29, 1/2) = 2 (1 + 29 + 406 + 3654 + 23751) / 2^29.
    expect(v.test?.p).toBeCloseTo((2 * 27_841) / 2 ** 29, 12);
  });

  it('by six cells all one way, the fewest that can: five are a tie', () => {
    const six = only([...cells('a', 6, () => true), ...cells('b', 6, () => false)]);
    expect(six.call).toBe('leads');
    expect(six.test?.p).toBeCloseTo(2 / 64, 12);
    // Five cells: no test over them can reach 0.05.
    const five = only([...cells('a', 5, () => true), ...cells('b', 5, () => false)]);
    expect(five.call).toBe('too-few');
    expect(five.leaders.map((s) => s.name)).toEqual(['a']);
  });
});

describe('a tie', () => {
  it('nine instances, thirteen strategies at 8 of 9: tied and all named, none crowned by tokens', () => {
    // As a new user met it: the cheapest of the thirteen (`tiered`) used to be crowned.
    const tied = Array.from({ length: 12 }, (_, k) => `s${String(k + 1).padStart(2, '0')}`);
    const rows = [
      ...tied.flatMap((s) => cells(s, 9, (k) => k !== 8, 5000)),
      ...cells('tiered', 9, (k) => k !== 8, 200),
      ...cells('weak', 9, (k) => k < 2),
    ];
    const v = only(rows);
    expect(v.call).toBe('tied');
    expect(v.leaders.map((s) => s.name)).toEqual([...tied, 'tiered']);
    expect(v.leaders.every((s) => s.allFullText === 8 / 9)).toBe(true);
    // The next differs from each in six cells, all one way: separated, and out of the tie.
    expect(v.next?.name).toBe('weak');
    expect(v.test).toMatchObject({ aOnly: 6, bOnly: 0 });
    expect(v.test?.p).toBeCloseTo(2 / 64, 12);
  });

  it('a single top the test cannot put above the next: both named, and who else is within chance', () => {
    // 20 cases: `a` 10 whole, `b` 8 (a alone in 3, b alone in 1), `c` 7 (a alone in 3, c in 0),
    // `d` 1 (a alone in 9).
    const rows = [
      ...cells('a', 20, (k) => k < 10),
      ...cells('b', 20, (k) => k < 7 || k === 12),
      ...cells('c', 20, (k) => k < 7),
      ...cells('d', 20, (k) => k < 1),
    ];
    const v = only(rows);
    expect(v.call).toBe('tied');
    expect(v.leaders.map((s) => s.name)).toEqual(['a', 'b', 'c']);
    expect(v.leaders[0]?.pTop).toBeNull();
    // b: 2 P(X <= 1), X ~ Binomial(4, 1/2) = 2 * 5/16; c: 2 P(X <= 0), n 3 = 2/8.
    expect(v.leaders[1]?.pTop).toBeCloseTo(10 / 16, 12);
    expect(v.leaders[2]?.pTop).toBeCloseTo(2 / 8, 12);
    expect(v.next?.name).toBe('b');
    expect(v.test).toMatchObject({ a: 'a', b: 'b', aOnly: 3, bOnly: 1 });
    expect(v.test?.p).toBeCloseTo(10 / 16, 12);
    // `d` is out: 9 cells against 0, p = 2/512.
  });

  it('several at the top are tied even when the test separates them from the next', () => {
    const rows = [
      ...cells('x', 12, (k) => k < 10, 300),
      ...cells('y', 12, (k) => k >= 2, 9000),
      ...cells('z', 12, () => false),
    ];
    const v = only(rows);
    expect(v.call).toBe('tied');
    expect(v.leaders.map((s) => s.name)).toEqual(['x', 'y']);
    expect(v.next?.name).toBe('z');
    expect(v.test?.p).toBeLessThan(0.05);
  });

  it('fewer cells than a difference needs: the run cannot separate them', () => {
    const v = only([...cells('a', 4, () => true), ...cells('b', 4, (k) => k < 1)]);
    expect(v.call).toBe('too-few');
    expect(v.cells).toBe(4);
  });
});

describe('what leads nothing', () => {
  it('a strategy that never holds every needed file whole: no leader', () => {
    const v = only([...cells('paths', 8, () => false), ...cells('none', 8, () => false)]);
    expect(v.call).toBe('none');
    expect(v.leaders).toEqual([]);
    expect(v.next).toBeNull();
  });

  it('the oracle, which reads the ledger: apart, as the ceiling, even where it holds the most', () => {
    const v = only([...cells('oracle', 8, () => true), ...cells('topk', 8, (k) => k < 2)]);
    expect(v.leaders.map((s) => s.name)).toEqual(['topk']);
    expect(v.ceilings.map((s) => s.name)).toEqual(['oracle']);
    expect(v.ceilings[0]?.pTop).toBeNull();
  });
});
