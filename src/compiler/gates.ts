import type { ContextCandidate, GateCode } from './types.js';

export interface GateVerdict {
  readonly code: GateCode;
  readonly detail: string;
}

const ELIGIBLE: GateVerdict = { code: 'eligible', detail: 'passed scope/freshness/authority/floor gates' };

/**
 * The four hard gates in order; the first failure wins. Eligibility is an input: the engine
 * never judges scope, time or authority itself, it only enforces the caller's verdicts.
 */
export function gate(c: ContextCandidate): GateVerdict {
  if (!c.scope_eligible) return { code: 'scope_ineligible', detail: c.scope_reason };
  if (!c.freshness_eligible) return { code: 'freshness_ineligible', detail: c.freshness_reason };
  if (!c.authority_eligible) return { code: 'authority_ineligible', detail: c.authority_reason };
  if (c.form_rank < c.min_rank) {
    return { code: 'illegal_representation', detail: `form_rank ${c.form_rank} below floor ${c.min_rank}` };
  }
  return ELIGIBLE;
}

/** A required (all-or-none) group: a non-empty `group_id` with `group_required`. */
export const requiredGroupOf = (c: ContextCandidate): string | null =>
  c.group_id && c.group_required ? c.group_id : null;

/** Every required group's members, in the order given. */
export function requiredGroups<C extends ContextCandidate>(candidates: readonly C[]): Map<string, C[]> {
  const groups = new Map<string, C[]>();
  for (const c of candidates) {
    const g = requiredGroupOf(c);
    if (g === null) continue;
    const list = groups.get(g);
    if (list === undefined) groups.set(g, [c]);
    else list.push(c);
  }
  return groups;
}
