/** What the MANDATORY and REQUIRED stages share: the `cheapest` rule and "no legal form". */

import type { ContextCandidate, FailureReason, RequirementClass } from '../compiler-types.js';
import type { CompileState } from '../state.js';
import { refuse, type StageRefusal } from './refusal.js';

/** Forms ordered by what each costs alone, then id: the `cheapest` rule (docs/compiler.md §7). */
export function cheapestFirst(s: CompileState, forms: readonly ContextCandidate[]): ContextCandidate[] {
  const cost = new Map(forms.map((f) => [f.candidate_id, s.price([f.candidate_id]).cost]));
  return [...forms].sort(
    (a, b) =>
      (cost.get(a.candidate_id) as number) - (cost.get(b.candidate_id) as number) ||
      (a.candidate_id < b.candidate_id ? -1 : 1),
  );
}

/** No eligible form: all of them below their floor is a representation problem, else eligibility. */
function noEligibleForm(s: CompileState, forms: readonly ContextCandidate[]): FailureReason {
  const floorOnly =
    forms.length > 0 && forms.every((f) => s.pool.verdict(f.candidate_id).code === 'illegal_representation');
  return floorOnly ? 'NO_LEGAL_REPRESENTATION' : 'REQUIRED_INELIGIBLE';
}

/** Content that must be present has no eligible form: the refusal, worded by stage. */
export function noLegalForm(
  s: CompileState,
  stage: RequirementClass,
  identity: string,
  forms: readonly ContextCandidate[],
): StageRefusal {
  const reason = noEligibleForm(s, forms);
  const why = reason === 'NO_LEGAL_REPRESENTATION' ? 'all forms violate floor' : 'no hard-eligible form';
  return refuse(reason, [identity], `${stage.toLowerCase()} ${identity}: ${why}`);
}
