/**
 * The ledger-free objective `exact` optimises, and how two bundles compare under it: earned
 * PREFERRED relevance, then earned DISCRETIONARY relevance, then the smaller rendered cost, then
 * the smaller sorted id list.
 */
import { type ContextCandidate, promotedClass, renderedCost } from '../../compiler/index.js';
import type { Objective, StrategyInput } from '../types.js';
import { byId } from './pool-index.js';

/**
 * The ledger-free objective: earned PREFERRED relevance, then earned DISCRETIONARY relevance,
 * then the rendered cost (smaller is better). A candidate earns when its relevance reaches the
 * policy threshold or it holds a coverage key that no other admitted candidate holds.
 */
export function objectiveOf(input: StrategyInput, ids: readonly string[]): Objective {
  const lookup = byId(input.candidates);
  const members = [...ids]
    .sort()
    .map((id) => lookup.get(id))
    .filter((c): c is ContextCandidate => c !== undefined);
  const holders = new Map<string, number>();
  for (const c of members)
    for (const k of new Set(c.coverage_keys)) holders.set(k, (holders.get(k) ?? 0) + 1);
  const threshold = input.policy.min_discretionary_relevance;
  const named = new Set(input.request.required_ids);
  let preferred = 0;
  let discretionary = 0;
  for (const c of members) {
    const earns = c.relevance >= threshold || c.coverage_keys.some((k) => holders.get(k) === 1);
    if (!earns) continue;
    const k = promotedClass(c, named);
    if (k === 'PREFERRED') preferred += c.relevance;
    if (k === 'DISCRETIONARY') discretionary += c.relevance;
  }
  return { preferred, discretionary, rendered_cost: renderedCost(members, input.request, input.policy) };
}

/** Objective sums compare with this tolerance. */
export const EPSILON = 1e-9;

/** Positive when `a` is better: larger earned sums first, then the smaller rendered cost. */
export function compareObjectives(a: Objective, b: Objective): number {
  if (Math.abs(a.preferred - b.preferred) > EPSILON) return a.preferred - b.preferred;
  if (Math.abs(a.discretionary - b.discretionary) > EPSILON) return a.discretionary - b.discretionary;
  return b.rendered_cost - a.rendered_cost;
}

/** The final tie-break: the sorted list of admitted ids, the smaller list first. */
export function compareIdLists(a: readonly string[], b: readonly string[]): number {
  const x = [...a].sort();
  const y = [...b].sort();
  for (let k = 0; k < Math.min(x.length, y.length); k++) {
    if (x[k] !== y[k]) return (x[k] as string) < (y[k] as string) ? -1 : 1;
  }
  return x.length - y.length;
}
