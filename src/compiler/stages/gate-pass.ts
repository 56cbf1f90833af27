import type { CompileState } from '../state.js';
import { refuse, type StageRefusal } from './refusal.js';

/**
 * docs/compiler.md §10.2: every candidate failing a gate is rejected at the full budget. Each
 * entry stands alone, so the pool's own (id) order serves as well as the input's.
 */
export function hardGatePass(s: CompileState): void {
  for (const f of s.pool.facts) {
    if (!f.eligible) s.rejectFact(f, 'REJECTED_HARD', f.verdict.code, f.verdict.detail, 0);
  }
}

/**
 * Refuse mode only (docs/compiler.md §17.3): a named candidate must be a member, so one that
 * fails a gate, or two named forms of one content, can never give a legal bundle. The reference
 * goes on and omits them.
 */
export function checkNamedCandidates(s: CompileState): StageRefusal | null {
  for (const [identity, named] of [...s.pool.namedByIdentity].sort(([a], [b]) => (a < b ? -1 : 1))) {
    if (named.length > 1) {
      const both = [...named].sort();
      return refuse(
        'REQUIRED_INELIGIBLE',
        both,
        `required ids name two forms of ${identity}: ${both.join(', ')}`,
      );
    }
  }
  for (const id of [...new Set(s.pool.request.required_ids)].sort()) {
    const v = s.pool.verdict(id);
    if (v.code === 'eligible') continue;
    const reason = v.code === 'illegal_representation' ? 'NO_LEGAL_REPRESENTATION' : 'REQUIRED_INELIGIBLE';
    return refuse(reason, [id], `required ${id}: ${v.code}`);
  }
  return null;
}
