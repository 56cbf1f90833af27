/**
 * Every ordering the compiler uses. Strings compare by UTF-16 code units, never by locale, so the
 * same inputs sort the same everywhere (docs/compiler.md §1).
 */
import type { ContextCandidate } from './compiler-types.js';

/** Ascending candidate id: the order of every scan, every trace and every tie-break. */
export const byCandidateId = (
  a: { readonly candidate_id: string },
  b: { readonly candidate_id: string },
): number => (a.candidate_id < b.candidate_id ? -1 : a.candidate_id > b.candidate_id ? 1 : 0);

/** Distinct, ascending: how blocking ids are written. */
export function sortedUnique(ids: readonly string[]): string[] {
  return [...new Set(ids)].sort();
}

/**
 * The bundle layout (docs/compiler.md §11.1): by the role's index in the policy, a role the
 * policy does not list after every listed one (at the list's length), then by id. A role listed
 * twice takes its last index, as the reference's role-to-index table does.
 */
export function orderByRole(
  candidates: readonly ContextCandidate[],
  orderRoles: readonly string[],
): ContextCandidate[] {
  const index = new Map<string, number>();
  orderRoles.forEach((role, k) => {
    index.set(role, k);
  });
  const rank = (c: ContextCandidate): number => index.get(c.order_role) ?? orderRoles.length;
  return [...candidates].sort((a, b) => {
    const d = rank(a) - rank(b);
    return d !== 0 ? d : byCandidateId(a, b);
  });
}
