import type { CompileState } from '../state.js';
import { cheapestFirst, noLegalForm } from './forms.js';
import { refuse, type StageRefusal } from './refusal.js';

const ids = (unit: readonly { readonly candidate_id: string }[]): string[] => unit.map((c) => c.candidate_id);

/**
 * docs/compiler.md §10.3: each MANDATORY content, identities in sorted order, takes its cheapest eligible
 * form that fits (with its whole required group). A form that fits but is blocked refuses
 * outright: there is no fallback to a dearer form.
 */
export function mandatoryStage(s: CompileState): StageRefusal | null {
  const { pool } = s;
  const identities = [
    ...new Set(pool.facts.filter((f) => f.band === 'MANDATORY').map((f) => f.c.content_identity)),
  ].sort();
  for (const identity of identities) {
    if (s.admittedIdentities.has(identity)) continue;
    const named = pool.strict ? pool.namedByIdentity.get(identity) : undefined;
    const forms =
      named !== undefined
        ? named.map((id) => pool.get(id))
        : (pool.byIdentity.get(identity) ?? []).filter((c) => pool.band(c.candidate_id) === 'MANDATORY');
    const eligible = forms.filter((f) => pool.eligible(f.candidate_id));
    if (eligible.length === 0) return noLegalForm(s, 'MANDATORY', identity, forms);
    let placed = false;
    for (const form of cheapestFirst(s, eligible)) {
      const unit = ids(pool.groupMembers(form) ?? [form]);
      const priced = s.price(unit);
      if (priced.cost > s.remaining) continue;
      const block = s.blockText(unit, priced.nodes);
      if (block)
        return refuse('UNSATISFIED_DEPENDENCY', [identity], `mandatory ${identity} blocked: ${block}`);
      s.commit(priced, 'mandatory', unit);
      placed = true;
      break;
    }
    if (!placed) {
      return refuse(
        'INSUFFICIENT_BUDGET',
        [identity],
        `mandatory ${identity} closure exceeds remaining budget`,
      );
    }
  }
  return null;
}

/** docs/compiler.md §10.5: the unchosen MANDATORY forms of admitted contents. */
export function mandatoryCloseOut(s: CompileState): void {
  for (const f of s.pool.facts) {
    if (f.band !== 'MANDATORY' || f.entry !== undefined) continue;
    if (f.content.admitted) {
      s.rejectFact(
        f,
        'REJECTED_ALTERNATIVE',
        'alternative_selected',
        'another form of this content admitted',
        0,
      );
    }
  }
}
