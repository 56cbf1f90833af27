/**
 * The survey's figures from hand-made rows: rates and their bases, and the Wilson interval worked
 * out by hand (0 of 10: 0 to 27.75%; 5 of 10: 23.66% to 76.34%).
 */
import { describe, expect, it } from 'vitest';
import { surveyLines } from '../../../src/harness/metrics/index.js';
import { wilson } from '../../../src/harness/metrics/stats.js';
import { formatRate, surveyMarkdown, surveySections } from '../../../src/harness/report/survey-page.js';
import type { Audit, Row } from '../../../src/harness/types.js';
import { row } from '../../helpers/rows.js';

const audit = (legal: boolean, missing: string[], preferred: number, cost: number): Audit => ({
  legal,
  missing_required: missing,
  objective: { preferred, discretionary: 0, rendered_cost: cost },
});
const refusal = (over: Partial<Row>): Row =>
  row({ success: false, reason: 'INSUFFICIENT_BUDGET', audit: null, ...over });

describe('wilson', () => {
  it('0 of 10 is 0 to 27.75%; 5 of 10 is 23.66% to 76.34%; nothing to count has no bounds', () => {
    const zero = wilson(0, 10);
    expect(zero.low).toBe(0);
    expect(zero.high).toBeCloseTo(0.27754, 4);
    const half = wilson(5, 10);
    expect(half.low).toBeCloseTo(0.23659, 4);
    expect(half.high).toBeCloseTo(0.76341, 4);
    expect(wilson(0, 0)).toEqual({ count: 0, of: 0, low: null, high: null });
  });

  it('formats as count, base, share and interval', () => {
    expect(formatRate(wilson(5, 10))).toBe('5 / 10 (50.0%, 23.7% to 76.3%)');
    expect(formatRate(wilson(0, 0))).toBe('-');
    // Counts separated like every count: 2423 of 3000 is not printed beside 5,318,541.
    expect(formatRate(wilson(2423, 3000))).toMatch(/^2,423 \/ 3,000 \(80\.8%, /);
  });
});

describe('surveyLines', () => {
  // Four cells. exact finds bundles in c1 and c2 (cost 100, preferred 1), certifies c3 and c4 impossible.
  const rows = [
    row({ case: 'c1', strategy: 'exact', audit: audit(true, [], 1, 100) }),
    row({ case: 'c2', strategy: 'exact', audit: audit(true, [], 1, 100) }),
    refusal({ case: 'c3', strategy: 'exact' }),
    refusal({ case: 'c4', strategy: 'exact' }),
    // s: a bundle in c1 (illegal, lacking content, preferred 0.5, cost 90), a false refusal in c2,
    // a bundle where none is legal in c3 (legal says the audit: no), a true refusal in c4.
    row({ case: 'c1', strategy: 's', audit: audit(false, ['m'], 0.5, 90) }),
    refusal({ case: 'c2', strategy: 's' }),
    row({ case: 'c3', strategy: 's', audit: audit(false, [], 0, 50) }),
    refusal({ case: 'c4', strategy: 's' }),
  ];
  const s = surveyLines([{ label: 'four', rows }]).find((l) => l.strategy === 's');

  it('counts refusals of all cells, false refusals of the feasible, holes of the bundles', () => {
    expect([s?.cells, s?.refusals.count, s?.refusals.of]).toEqual([4, 2, 4]);
    expect([s?.falseRefusals.count, s?.falseRefusals.of]).toEqual([1, 2]);
    expect([s?.illegal.count, s?.illegal.of]).toEqual([2, 2]);
    expect([s?.incomplete.count, s?.incomplete.of]).toEqual([1, 2]);
  });

  it('gaps only where both returned a bundle: preferred 1 - 0.5, tokens 90 - 100', () => {
    expect(s?.gap).toEqual({ preferred: 0.5, discretionary: 0, tokens: -10 });
    expect(s?.compared).toBe(1);
  });

  it('writes a table per run with a row per strategy but exact', () => {
    const runs = [{ label: 'four', rows }];
    const md = surveyMarkdown(surveySections(runs, surveyLines(runs)));
    expect(md).toContain('## four');
    expect(md).toContain('| s | 2 / 4 (50.0%');
    expect(md).not.toContain('| exact |');
    expect(md).toContain('4 cells; `exact` found a legal bundle in 2');
    // The gaps signed, to the places of their kind: relevance 4, a mean of tokens 1.
    expect(md).toMatch(/^\| s \| .* \| \+0\.5000 \| 0\.0000 \| -10\.0 \|$/m);
  });

  it('tells its caller each run before scoring it, for progress', () => {
    const told: string[] = [];
    surveyLines(
      [
        { label: 'a', rows },
        { label: 'b', rows },
      ],
      (run, k) => told.push(`${k} ${run.label}`),
    );
    expect(told).toEqual(['0 a', '1 b']);
  });
});

describe('certified answers in the survey', () => {
  // v: certifies its answers. Two proven refusals and one unproven; three bundles, one proven
  // optimal (gap 0), two bounded with gaps 0.25 and 1.5: median 0.25, worst 1.5.
  const v = (c: string, extras: Record<string, unknown>, success = true): Row =>
    success
      ? row({ case: c, strategy: 'v', audit: audit(true, [], 1, 100), extras })
      : refusal({ case: c, strategy: 'v', extras });
  const rows = [
    ...['a', 'b', 'c', 'd', 'e', 'f'].map((c) =>
      row({ case: c, strategy: 'exact', audit: audit(true, [], 1, 100) }),
    ),
    v('a', { proof: 'infeasible' }, false),
    v('b', { proof: 'infeasible' }, false),
    v('c', { proof: 'unproven' }, false),
    v('d', { proof: 'optimal', gap: 0 }),
    v('e', { proof: 'bounded', gap: 0.25 }),
    v('f', { proof: 'bounded', gap: 1.5 }),
    // s says nothing of its answers: no line in the certified table.
    ...['a', 'b'].map((c) => row({ case: c, strategy: 's', audit: audit(true, [], 1, 100) })),
  ];
  const runs = [{ label: 'six', rows }];
  const lines = surveyLines(runs);

  it('counts proven refusals and optimal bundles, and the reported gap median and worst', () => {
    expect(lines.find((l) => l.strategy === 'v')?.certified).toEqual({
      refusals: 3,
      proven: 2,
      unproven: 1,
      bundles: 3,
      optimal: 1,
      gapMedian: 0.25,
      gapWorst: 1.5,
    });
    expect(lines.find((l) => l.strategy === 's')?.certified).toBeNull();
  });

  it('writes them as a second table of the run, the certifying strategies only', () => {
    const md = surveyMarkdown(surveySections(runs, lines));
    expect(md).toMatch(/^\| v \| 2 of 3 \| 1 \| 1 of 3 \| 0\.2500 \| 1\.5000 \|$/m);
    expect(md.match(/^\| s \|/gm)).toHaveLength(1);
  });
});
