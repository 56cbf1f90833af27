import type { ContextCandidate, GateCode } from './compiler-types.js';

export interface GateVerdict {
  readonly code: GateCode;
  readonly detail: string;
}

const ELIGIBLE: GateVerdict = { code: 'eligible', detail: 'passed scope/freshness/authority/floor gates' };

/**
 * The four hard gates in order; the first failure wins (docs/compiler.md §5). Eligibility is an
 * input: the engine never judges scope, time or authority itself, it only enforces the caller's
 * verdicts.
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
