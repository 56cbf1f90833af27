/**
 * Legality and the ledger-free objective, as `exact` defines them (issue 4). Both are facts about
 * a bundle and its inputs alone, so any strategy, the scorer and the reports can use them.
 */
import { type ContextCandidate, gate, renderedCost, requiredGroups } from '../compiler/index.js';
import type { Audit, StrategyInput } from './types.js';

/** Classes after promotion: a named candidate is REQUIRED unless it is MANDATORY. */
export const effectiveClass = (c: ContextCandidate, requiredIds: readonly string[]) =>
  requiredIds.includes(c.candidate_id) && c.requirement !== 'MANDATORY' ? 'REQUIRED' : c.requirement;

/** Content that must be present: every identity with a MANDATORY or REQUIRED candidate. */
export function requiredContents(input: Pick<StrategyInput, 'candidates' | 'request'>): string[] {
  const ids = input.request.required_ids;
  const out = new Set<string>();
  for (const c of input.candidates) {
    const k = effectiveClass(c, ids);
    if (k === 'MANDATORY' || k === 'REQUIRED') out.add(c.content_identity);
  }
  return [...out].sort();
}

/**
 * Why a set of ids is not a legal bundle, one line per broken rule; empty when it is legal. The
 * rules: the hard gates, closed dependencies, one form per content, whole required groups, every
 * MANDATORY or REQUIRED content present, every named id present, rendered cost within budget.
 */
export function legalityProblems(input: StrategyInput, ids: readonly string[]): string[] {
  const lookup = new Map(input.candidates.map((c) => [c.candidate_id, c]));
  const inside = new Set(ids);
  const problems: string[] = [];
  const members = ids.map((id) => lookup.get(id)).filter((c): c is ContextCandidate => c !== undefined);
  if (members.length !== ids.length) problems.push('unknown candidate');
  const identities = new Set<string>();
  for (const c of members) {
    const code = gate(c).code;
    if (code !== 'eligible') problems.push(`${c.candidate_id} fails ${code}`);
    for (const d of c.depends_on) if (!inside.has(d)) problems.push(`${c.candidate_id} needs ${d}`);
    if (identities.has(c.content_identity)) problems.push(`two forms of ${c.content_identity}`);
    identities.add(c.content_identity);
  }
  const groups = requiredGroups(input.candidates);
  for (const [g, m] of groups) {
    const n = m.filter((c) => inside.has(c.candidate_id)).length;
    if (n > 0 && n < m.length) problems.push(`group ${g} split`);
  }
  for (const r of missingRequired(input, ids)) problems.push(`${r.kind} ${r.id} absent`);
  const cost = renderedCost(members, input.request, input.policy);
  if (cost > input.budget) problems.push(`rendered ${cost} over budget ${input.budget}`);
  return problems;
}

/** Something that must be in a bundle: a content with a MANDATORY or REQUIRED form, or a named id. */
export interface Needed {
  readonly kind: 'required content' | 'named';
  readonly id: string;
}

/** What a bundle lacks of what must be there. */
export function missingRequired(input: StrategyInput, ids: readonly string[]): Needed[] {
  const inside = new Set(ids);
  const lookup = new Map(input.candidates.map((c) => [c.candidate_id, c]));
  const held = new Set(ids.map((id) => lookup.get(id)?.content_identity));
  return [
    ...requiredContents(input)
      .filter((identity) => !held.has(identity))
      .map((id): Needed => ({ kind: 'required content', id })),
    ...input.request.required_ids
      .filter((id) => !inside.has(id))
      .map((id): Needed => ({ kind: 'named', id })),
  ];
}

export interface Objective {
  /** Relevance of the admitted PREFERRED-class candidates that earn. */
  readonly preferred: number;
  /** The same for DISCRETIONARY. */
  readonly discretionary: number;
  readonly rendered_cost: number;
}

/**
 * The ledger-free objective: earned PREFERRED relevance, then earned DISCRETIONARY relevance,
 * then the rendered cost (smaller is better). A candidate earns when its relevance reaches the
 * policy threshold or it holds a coverage key that no other admitted candidate holds.
 */
export function objectiveOf(input: StrategyInput, ids: readonly string[]): Objective {
  const lookup = new Map(input.candidates.map((c) => [c.candidate_id, c]));
  const members = [...ids]
    .sort()
    .map((id) => lookup.get(id))
    .filter((c): c is ContextCandidate => c !== undefined);
  const holders = new Map<string, number>();
  for (const c of members)
    for (const k of new Set(c.coverage_keys)) holders.set(k, (holders.get(k) ?? 0) + 1);
  const threshold = input.policy.min_discretionary_relevance;
  let preferred = 0;
  let discretionary = 0;
  for (const c of members) {
    const earns = c.relevance >= threshold || c.coverage_keys.some((k) => holders.get(k) === 1);
    if (!earns) continue;
    const k = effectiveClass(c, input.request.required_ids);
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

/** The audit of a returned bundle: is it legal, what required content does it lack, its score. */
export function auditOf(input: StrategyInput, ids: readonly string[]): Audit {
  const missing = missingRequired(input, ids).map((r) => r.id);
  return {
    legal: legalityProblems(input, ids).length === 0,
    missing_required: missing,
    objective: objectiveOf(input, ids),
  };
}
