/**
 * What every generated shape ends with: candidates in id order, a ledger of the contents still
 * present, and budgets from the least rendered cost of a legal bundle, which `exact` proves.
 */
import {
  byCandidateId,
  type ContextCandidate,
  type ContextRequest,
  defaultPolicy,
  SCHEMA,
} from '../../compiler/index.js';
import { loadExact } from '../kit/index.js';
import type { CaseLedger, IdentityTruth } from '../types.js';

// Generated budgets and expectations are certified by exact, so generating loads HiGHS.
const { leastLegalCost, DEFAULT_ILP_LIMITS } = await loadExact();

export interface GeneratedCase {
  readonly request: ContextRequest;
  readonly candidates: readonly ContextCandidate[];
  readonly ledger: CaseLedger;
  /** Tight, medium and roomy budgets for this pool. */
  readonly budgets: { readonly tight: number; readonly medium: number; readonly roomy: number };
  /** The least rendered cost of a legal bundle, as `exact` proves it: where one just fits. */
  readonly leastLegalCost: number;
}

/** Sort, prune the ledger to what is present, and price the budgets. */
export function finishCase(
  name: string,
  candidates: ContextCandidate[],
  truth: Record<string, IdentityTruth>,
): GeneratedCase {
  // Written in id order, as a store that keys candidates by id would hand them over.
  candidates.sort(byCandidateId);
  const present = new Set(candidates.map((c) => c.content_identity));
  for (const identity of Object.keys(truth)) if (!present.has(identity)) delete truth[identity];
  const { need, ...budgets } = budgetsFor(requestFor(name, 0), candidates, truth);
  return {
    request: requestFor(name, budgets.medium),
    candidates,
    ledger: { expected: { success: true, reason: null }, identity_truth: truth },
    budgets,
    leastLegalCost: need,
  };
}

const requestFor = (name: string, budget: number): ContextRequest => ({
  schema_version: SCHEMA.request,
  request_id: `${name}-req`,
  task_id: `${name}-task`,
  usable_token_budget: budget,
  created_at: '2026-01-01T00:00:00Z',
  active_scope: 'synthetic-project-a',
  required_ids: [],
  policy_version: defaultPolicy().policy_version,
});

/**
 * Budgets from the pool's own sizes. `need` is the least rendered cost of any legal bundle, as
 * `exact` proves it: tight lies below it (no legal bundle fits), medium and roomy above it (one
 * does), with room for part or all of the should content on top.
 */
function budgetsFor(
  request: ContextRequest,
  candidates: readonly ContextCandidate[],
  truth: Readonly<Record<string, IdentityTruth>>,
) {
  const input = { request, candidates, policy: defaultPolicy(), budget: request.usable_token_budget };
  const { cost: need, proven } = leastLegalCost(input, DEFAULT_ILP_LIMITS);
  if (!proven || !Number.isFinite(need))
    throw new Error('a generated pool has no provably least legal bundle');
  const cheapest = new Map<string, number>();
  for (const c of candidates) {
    const known = cheapest.get(c.content_identity);
    if (known === undefined || c.token_count < known) cheapest.set(c.content_identity, c.token_count);
  }
  const should = [...cheapest]
    .filter(([i]) => truth[i]?.eval_class === 'should')
    .reduce((s, [, n]) => s + n + 4, 0);
  return {
    need,
    tight: Math.floor(need * 0.9),
    medium: need + Math.round(need * 0.1 + should * 0.4),
    roomy: need + Math.round(need * 0.3 + should * 1.2),
  };
}
