import type { Measures, Row } from '../../src/harness/types.js';

/** A scored, correct, feasible bundle with no violations; override what the test is about. */
export function row(over: Partial<Row> = {}): Row {
  return {
    case: 'c1',
    budget: 'tight',
    budget_tokens: 1000,
    strategy: 'a',
    success: true,
    reason: null,
    admitted: [],
    bundle_hash: null,
    rendered_tokens: 0,
    status_correct: true,
    budget_compliant: true,
    must_recall: 1,
    should_recall: 1,
    must_total: 1,
    should_total: 1,
    precision: 1,
    distractor_admission: 0,
    harmful_admission: 0,
    illegal_admission: 0,
    scope_violations: 0,
    freshness_violations: 0,
    authority_violations: 0,
    floor_violations: 0,
    dependency_violations: 0,
    group_violations: 0,
    under_admission: 0,
    over_admission: 0,
    budget_slack: 0,
    expected: { success: true, reason: null },
    audit: null,
    extras: {},
    ...over,
  };
}

/** A bundle's measures, each null or 0 and the composition empty; override what the test is about. */
export const measures = (over: Partial<Measures> = {}): Measures => ({
  must_middle_share: null,
  mean_position: null,
  ndcg: null,
  first_must_rr: null,
  must_sufficient_recall: null,
  ranked_must_rr: null,
  useful_share: 0,
  must_token_share: 0,
  redundant_tokens: 0,
  budget_use: null,
  overshoot_tokens: 0,
  positions: [],
  composition: {
    frame: 0,
    roles: {},
    classes: { MANDATORY: 0, REQUIRED: 0, PREFERRED: 0, DISCRETIONARY: 0 },
  },
  ...over,
});
