/**
 * docs/compiler.md §11.3 as the reference runs it: rescan the live list from the end after every
 * drop. Quadratic; kept as what `repair-fast.ts` is tested against (§18).
 */

import type { ContextCandidate } from '../../compiler-types.js';
import { renderedCost } from '../../render.js';
import type { CompileState } from '../../state.js';
import { drop, victimsOf } from './victims.js';

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
 * The next victims: the last DISCRETIONARY item in render order that nothing live depends on,
 * with its live group mates. Refuse mode also requires that no survivor depends on a mate.
 */
function nextVictims(s: CompileState, live: readonly ContextCandidate[]): ContextCandidate[] | null {
  const held = dependedUpon(live);
  for (let k = live.length - 1; k >= 0; k--) {
    const c = live[k] as ContextCandidate;
    if (s.pool.band(c.candidate_id) !== 'DISCRETIONARY' || held.has(c.candidate_id)) continue;
    const victims = victimsOf(s, c, live);
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

export function repairReference(
  s: CompileState,
  start: readonly ContextCandidate[],
): ContextCandidate[] | null {
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
