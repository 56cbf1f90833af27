/**
 * docs/compiler.md §11: lay the admitted candidates out by role, price the rendering, and while
 * it overruns drop the last droppable DISCRETIONARY item. Nothing else is ever dropped:
 * mandatory, required and depended-upon content stays, or the compile refuses (§11.4).
 */

import type { ContextCandidate } from '../../compiler-types.js';
import { REPAIR_DROP_LAST_DISCRETIONARY } from '../../compiler-vocabulary.js';
import { orderByRole } from '../../order.js';
import { renderedCost } from '../../render.js';
import type { CompileState } from '../../state.js';
import type { StageRefusal } from '../refusal.js';
import type { Repair } from './victims.js';

/** The final live list in render order and its rendered cost. */
export type Placed = { readonly live: readonly ContextCandidate[]; readonly cost: number };

export function layOutAndRepair(s: CompileState, repair: Repair): Placed | StageRefusal {
  const { request, policy } = s.pool;
  const budget = request.usable_token_budget;
  const live = orderByRole(
    [...s.admitted].map((id) => s.pool.get(id)),
    policy.order_roles,
  );
  const cost = renderedCost(live, request, policy);
  if (cost <= budget) return { live, cost };
  const noRepair: StageRefusal = {
    reason: 'INSUFFICIENT_BUDGET',
    blocking: live.map((c) => c.candidate_id),
    diagnostic: `rendered ${cost} exceeds budget ${budget} with no legal repair`,
  };
  if (policy.repair !== REPAIR_DROP_LAST_DISCRETIONARY) return noRepair;
  const repaired = repair(s, live);
  if (repaired === null) return noRepair;
  s.admittedIdentities.clear();
  for (const c of repaired) s.admittedIdentities.add(c.content_identity);
  const after = renderedCost(repaired, request, policy);
  s.remaining = budget - after;
  return { live: repaired, cost: after };
}
