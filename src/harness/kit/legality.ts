/**
 * Legality and the audit of a bundle: facts about a bundle and its inputs alone, no ledger, so
 * `exact`, the scorer and the reports share them.
 */
import { type ContextCandidate, gate, promotedClass, renderedCost } from '../../compiler/index.js';
import type { Audit, StrategyInput } from '../types.js';
import { objectiveOf } from './objective.js';
import { byId, groupsOf, keptWith } from './pool-index.js';

/** Content that must be present: every identity with a MANDATORY or REQUIRED candidate. */
export function requiredContents(input: Pick<StrategyInput, 'candidates' | 'request'>): string[] {
  // By request: a case's cells ask the same named ids of one pool.
  const byRequest = keptWith(contentsKnown, input.candidates, () => new Map<string, readonly string[]>());
  const key = JSON.stringify(input.request.required_ids);
  let contents = byRequest.get(key);
  if (contents === undefined) {
    contents = requiredOf(input);
    byRequest.set(key, contents);
  }
  return [...contents];
}

const contentsKnown = new WeakMap<readonly ContextCandidate[], Map<string, readonly string[]>>();

function requiredOf(input: Pick<StrategyInput, 'candidates' | 'request'>): string[] {
  const named = new Set(input.request.required_ids);
  const out = new Set<string>();
  for (const c of input.candidates) {
    const k = promotedClass(c, named);
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
  const lookup = byId(input.candidates);
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
  for (const [g, m] of groupsOf(input.candidates)) {
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
  const lookup = byId(input.candidates);
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

/** The audit of a returned bundle: is it legal, what required content does it lack, its score. */
export function auditOf(input: StrategyInput, ids: readonly string[]): Audit {
  const missing = missingRequired(input, ids).map((r) => r.id);
  return {
    legal: legalityProblems(input, ids).length === 0,
    missing_required: missing,
    objective: objectiveOf(input, ids),
  };
}
