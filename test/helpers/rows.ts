import type { Row } from '../../src/harness/types.js';

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
