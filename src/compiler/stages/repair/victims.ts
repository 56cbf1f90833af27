/** What both repair implementations share: who is a victim, and what a drop writes. */

import type { ContextCandidate } from '../../compiler-types.js';
import { requiredGroupOf } from '../../groups.js';
import type { CompileState } from '../../state.js';

/** A repair: the live list after dropping what must go, or null when nothing more may go. */
export type Repair = (s: CompileState, start: readonly ContextCandidate[]) => ContextCandidate[] | null;

/**
 * The candidates dropped with `c`: its live group mates. The reference drops every live
 * candidate sharing the group_id, even a MANDATORY one outside the required group; refuse mode
 * drops the required group only (docs/compiler.md §11.3, §17.3).
 */
export function victimsOf(
  s: CompileState,
  c: ContextCandidate,
  live: readonly ContextCandidate[],
  isLive: (m: ContextCandidate) => boolean = () => true,
): ContextCandidate[] {
  const g = requiredGroupOf(c);
  if (g === null) return [c];
  const strict = s.pool.strict;
  return live.filter((m) => isLive(m) && m.group_id === g && (!strict || m.group_required));
}

/** Un-admit repair victims and rewrite their entries (sorted, as the reference does). */
export function drop(s: CompileState, victims: readonly ContextCandidate[]): void {
  for (const v of victims) s.admitted.delete(v.candidate_id);
  for (const id of victims.map((v) => v.candidate_id).sort()) {
    const entry = s.entries.get(id);
    if (entry === undefined) continue;
    entry.decision = 'REJECTED_BUDGET';
    entry.reason_code = 'repair-drop';
    entry.reason_detail = 'removed by render-overrun repair';
    entry.position = null;
    // Open in the reference: cleared, because a candidate that is no longer admitted was not
    // pulled in by anything, and the v2 validator says so (docs/compiler.md §17.1).
    entry.pulled_in_by = [];
  }
}
