import type { ContextCandidate } from '../compiler-types.js';
import type { CompileState } from '../state.js';
import type { StageRefusal } from './refusal.js';
import type { Placed } from './repair/layout.js';

/**
 * docs/compiler.md §11.5, the engine's own last look. The reference checks budget, layout and
 * admission (unreachable in practice). Refuse mode adds the legality rules the independent
 * validators enforce, so that a hole in the stages above refuses instead of shipping an illegal
 * bundle (§17.3).
 */
export function internalCheck(s: CompileState, placed: Placed): StageRefusal | null {
  const { live, cost } = placed;
  const liveIds = live.map((c) => c.candidate_id);
  const problems: { reason: StageRefusal['reason']; text: string }[] = [];
  const general = (text: string) => problems.push({ reason: 'INSUFFICIENT_BUDGET', text });
  if (cost > s.pool.request.usable_token_budget) general('rendered cost exceeds budget');
  for (const id of liveIds) if (!s.admitted.has(id)) general(`bundle item not admitted: ${id}`);
  // Rendered pricing must have charged exactly what the bundle renders at.
  const charged = s.pool.request.usable_token_budget - s.remaining;
  if (s.rendered && live.length > 0 && charged !== cost)
    general(`admission charged ${charged} but the bundle renders at ${cost}`);
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
  problems: { reason: StageRefusal['reason']; text: string }[],
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
  for (const { c, band } of s.pool.facts) {
    if ((band === 'MANDATORY' || band === 'REQUIRED') && !identities.has(c.content_identity)) {
      problems.push({ reason: 'REQUIRED_INELIGIBLE', text: `required content ${c.content_identity} absent` });
      identities.add(c.content_identity);
    }
  }
}
