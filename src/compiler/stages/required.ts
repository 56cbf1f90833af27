import type { ContextCandidate } from '../compiler-types.js';
import type { CompileState } from '../state.js';
import { cheapestFirst, noLegalForm } from './forms.js';
import { refuse, type StageRefusal } from './refusal.js';

const ids = (unit: readonly ContextCandidate[]): string[] => unit.map((c) => c.candidate_id);

/**
 * Refuse mode only (docs/compiler.md §17.3): REQUIRED content whose REQUIRED forms all fail a gate
 * is placed in another legal form of the same content when it has one (any class, outside required
 * groups), and refuses like MANDATORY content when it has none. The reference silently leaves it
 * out.
 */
function requiredFallbacks(s: CompileState): StageRefusal | Map<string, ContextCandidate[]> {
  const { pool } = s;
  const byIdentity = new Map<string, ContextCandidate[]>();
  for (const { c, band } of pool.facts) {
    if (band !== 'REQUIRED' || !s.selectable(c)) continue;
    byIdentity.set(c.content_identity, [...(byIdentity.get(c.content_identity) ?? []), c]);
  }
  const fallbacks = new Map<string, ContextCandidate[]>();
  for (const identity of [...byIdentity.keys()].sort()) {
    const forms = byIdentity.get(identity) as ContextCandidate[];
    if (s.admittedIdentities.has(identity) || forms.some((f) => pool.eligible(f.candidate_id))) continue;
    const others = (pool.byIdentity.get(identity) ?? []).filter(
      (c) => s.open(c) && s.selectable(c) && pool.groupMembers(c) === null,
    );
    if (others.length === 0) return noLegalForm(s, 'REQUIRED', identity, forms);
    fallbacks.set(identity, others);
  }
  return fallbacks;
}

/**
 * docs/compiler.md §10.4: required groups first (whole or refuse), then each REQUIRED content takes its
 * cheapest fitting form; its other forms are closed out as alternatives.
 */
export function requiredStage(s: CompileState): StageRefusal | null {
  const fallbacks = s.pool.strict ? requiredFallbacks(s) : new Map<string, ContextCandidate[]>();
  if (!(fallbacks instanceof Map)) return fallbacks;
  const units = s.bandUnits('REQUIRED');
  const singles = new Map<string, ContextCandidate[]>(fallbacks);
  const groups: ContextCandidate[][] = [];
  for (const unit of units) {
    const first = unit[0] as ContextCandidate;
    if (unit.length > 1 || s.pool.groupMembers(first) !== null) groups.push(unit);
    else singles.set(first.content_identity, [...(singles.get(first.content_identity) ?? []), first]);
  }
  for (const unit of groups) {
    const members = ids(unit).sort();
    const priced = s.price(ids(unit));
    const block = s.blockText(ids(unit), priced.nodes);
    if (block)
      return refuse('UNRESOLVED_REQUIRED_GROUP', members, `required group cannot be satisfied: ${block}`);
    if (priced.cost > s.remaining) {
      return refuse(
        'UNRESOLVED_REQUIRED_GROUP',
        members,
        `required group exceeds remaining budget: ${members.join(', ')}`,
      );
    }
    s.commit(priced, 'required', members);
  }
  for (const identity of [...singles.keys()].sort()) {
    if (s.admittedIdentities.has(identity)) continue;
    const forms = cheapestFirst(s, singles.get(identity) as ContextCandidate[]);
    const chosen = forms.find((f) => s.price([f.candidate_id]).cost <= s.remaining);
    if (chosen === undefined) {
      return refuse('INSUFFICIENT_BUDGET', [identity], `required ${identity}: no fitting legal form`);
    }
    const priced = s.price([chosen.candidate_id]);
    const block = s.blockText([chosen.candidate_id], priced.nodes);
    if (block)
      return refuse('UNSATISFIED_DEPENDENCY', [chosen.candidate_id], `required form blocked: ${block}`);
    s.commit(priced, 'required', [chosen.candidate_id]);
    for (const other of forms) {
      if (other !== chosen) {
        s.reject(
          other,
          'REJECTED_ALTERNATIVE',
          'alternative_selected',
          'another form of this content admitted',
          0,
        );
      }
    }
  }
  return null;
}
