import { describe, expect, it } from 'vitest';
import {
  budgetStats,
  FIGURES,
  figuresOf,
  oracleGap,
  rowsOf,
  strategiesOf,
  strategyStats,
  summary,
} from '../../../src/harness/metrics/index.js';
import { mean } from '../../../src/harness/metrics/stats.js';
import type { Row, StrategyStats } from '../../../src/harness/types.js';
import { STRATEGY_ERROR } from '../../../src/harness/vocabulary.js';
import { row } from '../../helpers/rows.js';

const INFEASIBLE = { success: false, reason: 'INSUFFICIENT_BUDGET' };
const refusal = (over: Partial<Row> = {}) =>
  row({ success: false, reason: 'INSUFFICIENT_BUDGET', budget_slack: null, ...over });
/** An error row carrying figures a real one leaves null: bait for an aggregate that counts it. */
const bait = (over: Partial<Row> = {}) =>
  row({
    success: false,
    reason: STRATEGY_ERROR,
    status_correct: false,
    must_recall: 0,
    should_recall: 0,
    precision: 0,
    rendered_tokens: 1000,
    dependency_violations: 9,
    over_admission: 9,
    budget_slack: 77,
    ...over,
  });

describe('strategyStats', () => {
  const rows = [
    row({
      must_recall: 1,
      should_recall: 0.5,
      rendered_tokens: 100,
      budget_slack: 20,
      dependency_violations: 1,
    }),
    row({ must_recall: 0.5, should_recall: null, precision: 0.5, rendered_tokens: 200, budget_slack: -10 }),
    refusal({ status_correct: false, must_recall: 0, should_recall: 0, under_admission: 3 }),
    refusal({ expected: INFEASIBLE, must_recall: 0, should_recall: 0 }),
    row({ expected: INFEASIBLE, status_correct: false, must_recall: 0.25, precision: 0.25, budget_slack: 5 }),
    bait(),
  ];
  const more = [
    row({ scope_violations: 2, illegal_admission: 1, distractor_admission: 1, over_admission: 2 }),
    row({ freshness_violations: 1, group_violations: 1, harmful_admission: 1, under_admission: 1 }),
    row({ authority_violations: 3, floor_violations: 1, rendered_tokens: 50 }),
  ];

  it('counts correct, wrong, refusals and errors, leaving error rows out of the first three', () => {
    expect(strategyStats(rows)).toMatchObject({
      rows: 6,
      correct: 3, // rows 1, 2, 4
      wrong: 2, // the feasible refusal and the infeasible bundle; not the error row
      refusals: 2, // the two refusals; the error row is not one
      errors: 1,
    });
  });

  it('means must recall over feasible rows, and over every scored row, ignoring nulls', () => {
    const s = strategyStats(rows);
    expect(s.must_recall_feasible).toBe(0.5); // (1 + 0.5 + 0) / 3
    expect(s.must_recall_all).toBe(0.35); // (1 + 0.5 + 0 + 0 + 0.25) / 5
    expect(s.should_recall).toBe(0.375); // (0.5 + 0 + 0 + 1) / 4: the null is not a 0
    expect(s.precision).toBe(0.75); // (1 + 0.5 + 1 + 1 + 0.25) / 5
  });

  it('takes budget slack only over feasible rows that returned a bundle', () => {
    // 20 and -10; not the refusals (null), the infeasible bundle (5) or the error row (77)
    expect(strategyStats(rows).budget_slack_feasible).toBe(5);
  });

  it('sums violations, admissions and tokens of scored rows only', () => {
    expect(strategyStats([...more, bait()])).toMatchObject({
      illegal: 1,
      violations: { scope: 2, freshness: 1, authority: 3, floor: 1, dependency: 0, group: 1 },
      distractor: 1,
      harmful: 1,
      over_admission: 2,
      under_admission: 1,
      rendered_tokens: 50,
    });
    expect(strategyStats(rows).rendered_tokens).toBe(300); // 100 + 200, not the error row's 1000
  });

  it('gives zero counts and null means for no rows or only error rows', () => {
    for (const rs of [[], [bait(), bait()]]) {
      const s = strategyStats(rs);
      expect(s).toMatchObject({ rows: rs.length, errors: rs.length, correct: 0, wrong: 0, refusals: 0 });
      expect([s.must_recall_feasible, s.must_recall_all, s.should_recall, s.precision]).toEqual([
        null,
        null,
        null,
        null,
      ]);
      expect(s.budget_slack_feasible).toBeNull();
      expect(s.rendered_tokens).toBe(0);
    }
  });
});

describe('summary, strategiesOf and rowsOf', () => {
  const rows = [
    row({ strategy: 'b', rendered_tokens: 1 }),
    row({ strategy: 'a', rendered_tokens: 10, budget: 'medium' }),
    row({ strategy: 'b', rendered_tokens: 100, budget: 'medium' }),
    row({ strategy: 'c', rendered_tokens: 1000 }),
  ];

  it('keys strategies in the order they first appear in the rows', () => {
    expect(strategiesOf(rows)).toEqual(['b', 'a', 'c']);
    expect(Object.keys(summary(rows).strategies)).toEqual(['b', 'a', 'c']);
  });

  it('gives each strategy the stats of its own rows', () => {
    const s = summary(rows).strategies;
    expect(s.b?.rows).toBe(2);
    expect(s.b?.rendered_tokens).toBe(101);
    expect(s.a?.rendered_tokens).toBe(10);
    expect(s.c?.rendered_tokens).toBe(1000);
  });

  it('filters by strategy and, when given, budget', () => {
    expect(rowsOf(rows, 'b').map((r) => r.rendered_tokens)).toEqual([1, 100]);
    expect(rowsOf(rows, 'b', 'medium').map((r) => r.rendered_tokens)).toEqual([100]);
    expect(rowsOf(rows, 'a', 'roomy')).toEqual([]);
  });
});

describe('budgetStats', () => {
  const rows = [
    row({ illegal_admission: 1, distractor_admission: 1, rendered_tokens: 100, dependency_violations: 1 }),
    row({
      status_correct: false,
      must_recall: 0,
      rendered_tokens: 50,
      group_violations: 2,
      scope_violations: 5,
    }),
    row({ budget: 'medium', harmful_admission: 2, must_recall: 1 }),
    refusal({ budget: 'medium', expected: INFEASIBLE, must_recall: 0 }),
    row({ strategy: 'other', dependency_violations: 10, rendered_tokens: 7 }),
  ];

  it('splits one strategy by budget; the per-budget table reads structural, dependency plus group', () => {
    const b = budgetStats(rows, 'a');
    // Each cell of report.md's per-budget table: the catalogue's per_budget figures of the budget.
    const cell = (s: StrategyStats) => figuresOf('per_budget').map((f) => [f.name, f.of(s)]);
    expect(cell(b.tight)).toEqual([
      ['correct', 1],
      ['illegal', 1],
      ['distractor', 1],
      ['harmful', 0],
      ['must_recall_all', 0.5], // (1 + 0) / 2
      ['rendered_tokens', 150],
      ['structural', 3], // 1 + 2; scope is not structural, the other strategy's 10 not counted
    ]);
    expect(b.tight.composition).toBeNull(); // these rows carry no measures
    // must recall over every row of the budget, the infeasible refusal included: (1 + 0) / 2
    expect(b.medium).toMatchObject({ correct: 2, harmful: 2, must_recall_all: 0.5 });
    expect(cell(b.roomy)).toEqual([
      ['correct', 0],
      ['illegal', 0],
      ['distractor', 0],
      ['harmful', 0],
      ['must_recall_all', null],
      ['rendered_tokens', 0],
      ['structural', 0],
    ]);
    expect(Object.keys(b)).toEqual(['tight', 'medium', 'roomy']);
  });
});

describe('oracleGap', () => {
  const o = (over: Partial<Row>) => row({ strategy: 'oracle', ...over });
  const s = (over: Partial<Row>) => row({ strategy: 's', ...over });
  const rows = [
    s({ rendered_tokens: 120, must_recall: 0.5, should_recall: 0.5 }),
    o({ rendered_tokens: 100, must_recall: 1, should_recall: 1 }),
    s({ budget: 'medium', rendered_tokens: 90, must_recall: 1, should_recall: 0 }),
    o({ budget: 'medium', rendered_tokens: 150, must_recall: 1, should_recall: 1 }),
    // the strategy refused: no token gap, a must gap of 1, no should gap (the oracle's is null)
    refusal({ strategy: 's', case: 'c2', must_recall: 0, should_recall: 0 }),
    o({ case: 'c2', rendered_tokens: 80, must_recall: 1, should_recall: null }),
    // an error row on either side: the cell is skipped
    bait({ strategy: 's', case: 'c2', budget: 'medium' }),
    o({ case: 'c2', budget: 'medium', rendered_tokens: 5000, must_recall: 1 }),
    s({ case: 'c3', rendered_tokens: 10, must_recall: 0 }),
    bait({ strategy: 'oracle', case: 'c3', must_recall: 1, rendered_tokens: 0 }),
    // no oracle row for this cell
    s({ case: 'c3', budget: 'roomy', rendered_tokens: 9999, must_recall: 0 }),
  ];

  it('compares tokens where both returned a bundle and recall oracle minus strategy', () => {
    expect(oracleGap(rows, 's')).toEqual({
      token_min: -60, // tokens: 120 - 100 = 20, 90 - 150 = -60
      token_max: 20,
      token_mean: -20,
      must_mean: 0.5, // (0.5 + 0 + 1) / 3
      should_mean: 0.75, // (0.5 + 1) / 2
    });
  });

  it('takes the oracle by the name given', () => {
    const renamed = rows.map((r) => (r.strategy === 'oracle' ? { ...r, strategy: 'exact' } : r));
    expect(oracleGap(renamed, 's', 'exact').token_min).toBe(-60);
  });

  it('is all nulls when there is nothing to compare', () => {
    const none = { token_min: null, token_max: null, token_mean: null, must_mean: null, should_mean: null };
    expect(
      oracleGap(
        rows.filter((r) => r.strategy === 's'),
        's',
      ),
    ).toEqual(none);
    expect(oracleGap(rows, 'nobody')).toEqual(none);
  });

  it('has recall gaps but no token gap when only refusals meet', () => {
    const both = [
      refusal({ strategy: 's', must_recall: 0, should_recall: 0 }),
      refusal({ strategy: 'oracle', must_recall: 0, should_recall: 0 }),
    ];
    expect(oracleGap(both, 's')).toEqual({
      token_min: null,
      token_max: null,
      token_mean: null,
      must_mean: 0,
      should_mean: 0,
    });
  });
});

describe('mean', () => {
  it('is null for no numbers and the arithmetic mean otherwise', () => {
    expect(mean([])).toBeNull();
    expect(mean([0])).toBe(0);
    expect(mean([1, 2, 6])).toBe(3);
  });
});

describe('strategyStats: illegal bundles and over budget', () => {
  const audit = (legal: boolean, missing: string[] = []) => ({
    legal,
    missing_required: missing,
    objective: { preferred: 0, discretionary: 0, rendered_cost: 0 },
  });
  const rows = [
    // an illegal bundle by its items: three illegal items, one illegal bundle
    row({ illegal_admission: 3, scope_violations: 3, audit: audit(false) }),
    // an illegal bundle with no illegal item: it lacks a required content; also over budget
    row({ audit: audit(false, ['m1']), budget_compliant: false, rendered_tokens: 1200, budget_slack: -200 }),
    // legal, and a bundle with no audit (a run written before audits): neither counts
    row({ audit: audit(true), budget_compliant: false, rendered_tokens: 1100, budget_slack: -100 }),
    row({ audit: null }),
    // a refusal, even one whose audit (bait: a real refusal has none) says illegal, is no illegal bundle
    refusal({ audit: audit(false) }),
    // a refusal as the scorer writes it: nothing rendered, so within budget
    refusal({ budget_compliant: true }),
    // error rows, baited with what would count if they were scored
    bait({ success: true, audit: audit(false), budget_compliant: false }),
    bait({ budget_compliant: false }),
  ];

  it('counts bundles whose audit is not legal, once each, never refusals or error rows', () => {
    // rows 1 and 2: not row 1's three items, not the refusal, not the error rows
    expect(strategyStats(rows).illegal_bundles).toBe(2);
    expect(strategyStats(rows).illegal).toBe(3); // the items, unlike the bundles
  });

  it('counts rows over budget, leaving error rows out', () => {
    // rows 2 and 3, whatever their legality; not the error rows
    expect(strategyStats(rows).over_budget).toBe(2);
  });

  it('is zero for only error rows and for only legal bundles within budget', () => {
    for (const rs of [[bait({ success: true, audit: audit(false), budget_compliant: false })], [row()]]) {
      const s = strategyStats(rs);
      expect([s.illegal_bundles, s.over_budget]).toEqual([0, 0]);
    }
  });

  it('the catalogue reads each from its own field, and the peers tables show both', () => {
    const s = { ...strategyStats(rows), illegal_bundles: 7, over_budget: 11 };
    const byName = new Map(FIGURES.map((f) => [f.name, f]));
    expect(byName.get('illegal_bundles')?.of(s)).toBe(7);
    expect(byName.get('over_budget')?.of(s)).toBe(11);
    expect(byName.get('illegal_bundles')?.label).toBe('illegal bundles');
    expect(byName.get('over_budget')?.label).toBe('over budget');
    for (const t of ['peers', 'peers_budget'] as const)
      expect(figuresOf(t).map((f) => f.name)).toEqual(
        expect.arrayContaining(['illegal_bundles', 'over_budget']),
      );
  });
});
