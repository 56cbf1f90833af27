/**
 * The study's metrics, computed from what a compilation admitted, the public hard gate and the
 * hidden ledger. Recall is per content identity: any admitted form of a must identity counts,
 * legal or not, sufficient or not. The only reader of the ledger besides the oracle.
 */
import { type ContextCandidate, gate, requiredGroups } from '../../compiler/index.js';
import { classOf, identitiesOfClass, mustContents } from '../corpus/index.js';
import type { CaseLedger, Expectation, Metrics } from '../types.js';

export interface Scored {
  /** Null for a refusal: no bundle was returned. */
  readonly admitted: readonly string[] | null;
  readonly reason: string | null;
  readonly renderedTokens: number;
  readonly budget: number;
}

const VIOLATION = {
  scope_ineligible: 'scope',
  freshness_ineligible: 'freshness',
  authority_ineligible: 'authority',
  illegal_representation: 'floor',
} as const;

export function score(
  out: Scored,
  expected: Expectation,
  candidates: readonly ContextCandidate[],
  ledger: CaseLedger,
): Metrics {
  const success = out.admitted !== null;
  const ids = out.admitted ?? [];
  const lookup = new Map(candidates.map((c) => [c.candidate_id, c]));
  const inside = new Set(ids);
  const identities = ids.map((id) => lookup.get(id)?.content_identity ?? id);
  const held = new Set(identities);
  const must = mustContents(ledger);
  const should = identitiesOfClass(ledger, 'should');
  const mustHit = must.filter((i) => held.has(i)).length;
  const shouldHit = should.filter((i) => held.has(i)).length;
  const count = { scope: 0, freshness: 0, authority: 0, floor: 0 };
  let illegal = 0;
  for (const id of ids) {
    const c = lookup.get(id);
    if (c === undefined) {
      illegal++;
      continue;
    }
    const code = gate(c).code;
    if (code === 'eligible') continue;
    illegal++;
    count[VIOLATION[code]]++;
  }
  let dependency = 0;
  for (const id of ids)
    for (const dep of lookup.get(id)?.depends_on ?? []) if (!inside.has(dep)) dependency++;
  const groups = requiredGroups(candidates);
  const group = [...groups.values()].filter((m) => {
    const n = m.filter((c) => inside.has(c.candidate_id)).length;
    return n > 0 && n < m.length;
  }).length;
  const classes = identities.map((i) => classOf(ledger, i));
  return {
    status_correct: expected.success
      ? success && out.reason === null
      : !success && (out.reason === expected.reason || expected.reason === null),
    budget_compliant: out.renderedTokens <= out.budget,
    must_recall: must.length === 0 ? null : mustHit / must.length,
    should_recall: should.length === 0 ? null : shouldHit / should.length,
    must_total: must.length,
    should_total: should.length,
    precision: held.size === 0 ? 1 : (mustHit + shouldHit) / held.size,
    distractor_admission: classes.filter((c) => c === 'distractor').length,
    harmful_admission: classes.filter((c) => c === 'harmful').length,
    illegal_admission: illegal,
    scope_violations: count.scope,
    freshness_violations: count.freshness,
    authority_violations: count.authority,
    floor_violations: count.floor,
    dependency_violations: dependency,
    group_violations: group,
    under_admission: must.length - mustHit + (should.length - shouldHit),
    over_admission: held.size - (mustHit + shouldHit),
    budget_slack: success ? out.budget - out.renderedTokens : null,
  };
}

/** An error row has no metrics. */
export const NO_METRICS: Metrics = {
  status_correct: null,
  budget_compliant: null,
  must_recall: null,
  should_recall: null,
  must_total: null,
  should_total: null,
  precision: null,
  distractor_admission: null,
  harmful_admission: null,
  illegal_admission: null,
  scope_violations: null,
  freshness_violations: null,
  authority_violations: null,
  floor_violations: null,
  dependency_violations: null,
  group_violations: null,
  under_admission: null,
  over_admission: null,
  budget_slack: null,
};
