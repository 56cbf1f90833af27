import { requiredGroupOf } from './gates.js';
import { Heap } from './heap.js';
import { orderByRole, renderedCost } from './render.js';
import { REPAIR_DROP_LAST_DISCRETIONARY } from './schemas.js';
import type { Refusal } from './stages.js';
import type { CompileState } from './state.js';
import { headerCost, itemRenderCost, SEPARATOR_COST } from './tokens.js';
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
export function layOutAndRepair(s: CompileState, fast = false): Placed | Refusal {
  const { request, policy } = s.pool;
  const budget = request.usable_token_budget;
  const live = orderByRole(
    [...s.admitted].map((id) => s.pool.get(id)),
    policy.order_roles,
  );
  const cost = renderedCost(live, request, policy);
  if (cost <= budget) return { live, cost };
  const noRepair: Refusal = {
    reason: 'INSUFFICIENT_BUDGET',
    blocking: live.map((c) => c.candidate_id),
    diagnostic: `rendered ${cost} exceeds budget ${budget} with no legal repair`,
  };
  if (policy.repair !== REPAIR_DROP_LAST_DISCRETIONARY) return noRepair;
  const repaired = fast && !s.pool.strict ? repairFast(s, live) : repairLiteral(s, live);
  if (repaired === null) return noRepair;
  s.admittedIdentities.clear();
  for (const c of repaired) s.admittedIdentities.add(c.content_identity);
  const after = renderedCost(repaired, request, policy);
  s.remaining = budget - after;
  return { live: repaired, cost: after };
}

/** Un-admit repair victims and rewrite their entries (sorted, as the reference does). */
function drop(s: CompileState, victims: readonly ContextCandidate[]): void {
  for (const v of victims) s.admitted.delete(v.candidate_id);
  for (const id of victims.map((v) => v.candidate_id).sort()) {
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
}

/** Section 9.2 to the letter: rescan the live list after every drop (the reference). */
function repairLiteral(s: CompileState, start: readonly ContextCandidate[]): ContextCandidate[] | null {
  const { request, policy } = s.pool;
  let live = [...start];
  while (renderedCost(live, request, policy) > request.usable_token_budget) {
    const victims = nextVictims(s, live);
    if (victims === null) return null;
    const gone = new Set(victims.map((v) => v.candidate_id));
    live = live.filter((c) => !gone.has(c.candidate_id));
    drop(s, victims);
  }
  return live;
}

/**
 * The same drops without rescans: candidates that nothing live depends on wait in a heap by
 * render position, and a drop releases the dependencies it held. Reference policy only.
 */
function repairFast(s: CompileState, start: readonly ContextCandidate[]): ContextCandidate[] | null {
  const { pool } = s;
  const { request, policy } = pool;
  const position = new Map(start.map((c, k) => [c.candidate_id, k]));
  const alive = new Set(position.keys());
  const holders = new Map<string, number>();
  const depsOf = (c: ContextCandidate) =>
    [...new Set(c.depends_on)].filter((d) => d !== c.candidate_id && alive.has(d));
  for (const c of start) for (const d of depsOf(c)) holders.set(d, (holders.get(d) ?? 0) + 1);
  const droppable = (id: string) =>
    alive.has(id) && pool.band(id) === 'DISCRETIONARY' && (holders.get(id) ?? 0) === 0;
  const heap = new Heap<string>((a, b) => (position.get(a) as number) > (position.get(b) as number));
  for (const c of start) if (droppable(c.candidate_id)) heap.push(c.candidate_id);
  let items = start.reduce((sum, c) => sum + itemRenderCost(c), 0);
  const cost = () => headerCost(request, policy) + items + Math.max(0, alive.size - 1) * SEPARATOR_COST;
  while (cost() > request.usable_token_budget) {
    let id = heap.pop();
    while (id !== undefined && !droppable(id)) id = heap.pop();
    if (id === undefined) return null;
    const victim = pool.get(id);
    const g = requiredGroupOf(victim);
    const victims =
      g === null ? [victim] : start.filter((m) => alive.has(m.candidate_id) && m.group_id === g);
    for (const v of victims) {
      const released = depsOf(v);
      alive.delete(v.candidate_id);
      items -= itemRenderCost(v);
      for (const d of released) {
        holders.set(d, (holders.get(d) ?? 0) - 1);
        if (droppable(d)) heap.push(d);
      }
    }
    drop(s, victims);
  }
  return start.filter((c) => alive.has(c.candidate_id));
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
