import { requiredGroupOf } from './gates.js';
import { orderByRole, renderedCost } from './render.js';
import { REPAIR_DROP_LAST_DISCRETIONARY } from './schemas.js';
import type { Refusal } from './stages.js';
import type { CompileState } from './state.js';
import type { ContextCandidate } from './types.js';

/** Live ids that some other live candidate depends on (directly, hence transitively too). */
function dependedUpon(live: readonly ContextCandidate[]): Set<string> {
  const liveIds = new Set(live.map((c) => c.candidate_id));
  const out = new Set<string>();
  for (const c of live) {
    for (const d of c.depends_on) if (d !== c.candidate_id && liveIds.has(d)) out.add(d);
  }
  return out;
}

/**
 * The next repair victims: the last DISCRETIONARY item in render order that nothing live depends
 * on, with its live group mates. Refuse mode also requires that no survivor depends on a mate.
 */
function nextVictims(s: CompileState, live: readonly ContextCandidate[]): ContextCandidate[] | null {
  const held = dependedUpon(live);
  for (let k = live.length - 1; k >= 0; k--) {
    const c = live[k] as ContextCandidate;
    if (s.pool.band(c.candidate_id) !== 'DISCRETIONARY' || held.has(c.candidate_id)) continue;
    const g = requiredGroupOf(c);
    // The reference drops every live candidate sharing the group_id, even a MANDATORY one that
    // is not in the required group; refuse mode drops the required group only.
    const mate = (m: ContextCandidate) => m.group_id === g && (!s.pool.strict || m.group_required);
    const victims = g === null ? [c] : live.filter(mate);
    if (s.pool.strict) {
      const gone = new Set(victims.map((v) => v.candidate_id));
      const survivorNeeds = live.some(
        (m) => !gone.has(m.candidate_id) && m.depends_on.some((d) => gone.has(d)),
      );
      if (survivorNeeds) continue;
    }
    return victims;
  }
  return null;
}

export type Placed = { readonly live: readonly ContextCandidate[]; readonly cost: number };

/**
 * Sections 8 and 9: lay the admitted candidates out by role, price the rendering, and while it
 * overruns drop the last droppable DISCRETIONARY item. Nothing else is ever dropped: mandatory,
 * required and depended-upon content stays, or the compile refuses.
 */
export function layOutAndRepair(s: CompileState): Placed | Refusal {
  const { request, policy } = s.pool;
  const budget = request.usable_token_budget;
  let live = orderByRole(
    [...s.admitted].map((id) => s.pool.get(id)),
    policy.order_roles,
  );
  let cost = renderedCost(live, request, policy);
  if (cost <= budget) return { live, cost };
  const before = live.map((c) => c.candidate_id);
  const costBefore = cost;
  const noRepair: Refusal = {
    reason: 'INSUFFICIENT_BUDGET',
    blocking: before,
    diagnostic: `rendered ${costBefore} exceeds budget ${budget} with no legal repair`,
  };
  if (policy.repair !== REPAIR_DROP_LAST_DISCRETIONARY) return noRepair;
  while (cost > budget) {
    const victims = nextVictims(s, live);
    if (victims === null) return noRepair;
    const gone = new Set(victims.map((v) => v.candidate_id));
    live = live.filter((c) => !gone.has(c.candidate_id));
    for (const id of gone) s.admitted.delete(id);
    s.admittedIdentities.clear();
    for (const c of live) s.admittedIdentities.add(c.content_identity);
    for (const id of [...gone].sort()) {
      const entry = s.entries.get(id);
      if (entry === undefined) continue;
      entry.decision = 'REJECTED_BUDGET';
      entry.reason_code = 'repair-drop';
      entry.reason_detail = 'removed by render-overrun repair';
      entry.position = null;
      // Open in the reference (spec section 20): we clear it, because a candidate that is no
      // longer admitted was not pulled in by anything, and the v2 validator says so.
      entry.pulled_in_by = [];
    }
    cost = renderedCost(live, request, policy);
  }
  s.remaining = budget - cost;
  return { live, cost };
}

/**
 * Section 9.4, the engine's own last look. The reference checks budget, layout and admission
 * (unreachable in practice). Refuse mode adds the legality rules the independent validators
 * enforce, so that a hole in the stages above refuses instead of shipping an illegal bundle.
 */
export function internalCheck(s: CompileState, placed: Placed): Refusal | null {
  const { live, cost } = placed;
  const liveIds = live.map((c) => c.candidate_id);
  const problems: { reason: Refusal['reason']; text: string }[] = [];
  const general = (text: string) => problems.push({ reason: 'INSUFFICIENT_BUDGET', text });
  if (cost > s.pool.request.usable_token_budget) general('rendered cost exceeds budget');
  for (const id of liveIds) if (!s.admitted.has(id)) general(`bundle item not admitted: ${id}`);
  if (s.pool.strict) strictProblems(s, live, problems);
  const first = problems[0];
  if (first === undefined) return null;
  return {
    reason: first.reason,
    blocking: liveIds,
    diagnostic: `post-compile validation failed: ${problems.map((p) => p.text).join('; ')}`,
  };
}

function strictProblems(
  s: CompileState,
  live: readonly ContextCandidate[],
  problems: { reason: Refusal['reason']; text: string }[],
): void {
  const liveIds = new Set(live.map((c) => c.candidate_id));
  const identities = new Set<string>();
  for (const c of live) {
    if (identities.has(c.content_identity)) {
      problems.push({ reason: 'UNSATISFIED_DEPENDENCY', text: `two forms of ${c.content_identity}` });
    }
    identities.add(c.content_identity);
    for (const d of c.depends_on) {
      if (!liveIds.has(d))
        problems.push({ reason: 'UNSATISFIED_DEPENDENCY', text: `${c.candidate_id} needs ${d}` });
    }
  }
  for (const [g, members] of s.pool.groups) {
    const present = members.filter((m) => liveIds.has(m.candidate_id)).length;
    if (present > 0 && present < members.length) {
      problems.push({ reason: 'UNRESOLVED_REQUIRED_GROUP', text: `group ${g} split` });
    }
  }
  for (const id of s.pool.request.required_ids) {
    if (!liveIds.has(id)) problems.push({ reason: 'REQUIRED_INELIGIBLE', text: `required ${id} absent` });
  }
  for (const c of s.pool.sorted) {
    const band = s.pool.band(c.candidate_id);
    if ((band === 'MANDATORY' || band === 'REQUIRED') && !identities.has(c.content_identity)) {
      problems.push({ reason: 'REQUIRED_INELIGIBLE', text: `required content ${c.content_identity} absent` });
      identities.add(c.content_identity);
    }
  }
}
