import type {
  CompilationResult,
  CompilerPolicy,
  ContextBundle,
  ContextCandidate,
  ContextRequest,
} from './compiler-types.js';

/*
 * The independent validators (docs/compiler.md §16). They re-derive legality from the inputs with
 * their own code, on purpose not the engine's gate or closure, so that a bug there cannot vouch
 * for itself. They return problem strings (empty = valid) and never throw for an ordinary illegal
 * bundle.
 */

/** Which hard rule a candidate breaks first; each flag must be exactly `true`. */
function brokenRule(c: ContextCandidate): string | null {
  if (c.scope_eligible !== true) return 'scope';
  if (c.freshness_eligible !== true) return 'freshness';
  if (c.authority_eligible !== true) return 'authority';
  if (!(c.form_rank >= c.min_rank)) return 'floor';
  return null;
}

/**
 * Is this bundle legal for these inputs? Checks layout, budget (item counts only, looser than
 * the engine), gates and floor, named ids, dependencies, required groups and one form per
 * content. Not checked: MANDATORY content that no id names, ordering, hash, header/separators.
 */
export function validateBundle(
  bundle: ContextBundle,
  request: ContextRequest,
  candidates: readonly ContextCandidate[],
  _policy?: CompilerPolicy,
): string[] {
  const problems: string[] = [];
  const itemIds = bundle.items.map((i) => i.id);
  if (
    itemIds.length !== bundle.layout_trace.length ||
    itemIds.some((id, k) => id !== bundle.layout_trace[k])
  ) {
    problems.push('layout trace must equal item order exactly');
  }
  const total = bundle.items.reduce((sum, i) => sum + i.token_count, 0);
  if (total > request.usable_token_budget) {
    problems.push(`rendered cost ${total} exceeds budget ${request.usable_token_budget}`);
  }
  const known = new Map(candidates.map((c) => [c.candidate_id, c]));
  const present = new Set(itemIds);
  for (const id of itemIds) {
    const c = known.get(id);
    if (c === undefined) {
      problems.push(`bundle item not a candidate: ${id}`);
      continue;
    }
    const rule = brokenRule(c);
    if (rule !== null) problems.push(`admitted hard-ineligible candidate ${id}: ${rule}`);
    if (c.form_rank < c.min_rank) problems.push(`admitted candidate below floor: ${id}`);
  }
  for (const id of request.required_ids) {
    if (!present.has(id) && known.has(id)) problems.push(`explicitly required candidate absent: ${id}`);
  }
  for (const id of itemIds) {
    for (const dep of known.get(id)?.depends_on ?? []) {
      if (!present.has(dep)) problems.push(`unsatisfied dependency: ${id} needs ${dep}`);
    }
  }
  const groups = new Map<string, string[]>();
  for (const c of candidates) {
    if (c.group_id && c.group_required)
      groups.set(c.group_id, [...(groups.get(c.group_id) ?? []), c.candidate_id]);
  }
  for (const [g, members] of groups) {
    const inside = members.filter((m) => present.has(m)).length;
    if (inside > 0 && inside < members.length) problems.push(`required group partially admitted: ${g}`);
  }
  const identities = new Set<string>();
  for (const id of itemIds) {
    const c = known.get(id);
    if (c === undefined) continue;
    if (identities.has(c.content_identity)) {
      problems.push(`duplicate representation admitted: ${c.content_identity}`);
    }
    identities.add(c.content_identity);
  }
  return problems;
}

/** Transitive dependencies, pre-order, listed order, discovery order, without the start. */
function dependenciesOf(start: string, known: ReadonlyMap<string, ContextCandidate>): readonly string[] {
  if ((known.get(start)?.depends_on.length ?? 0) === 0) return [];
  const order: string[] = [];
  const visited = new Set<string>([start]);
  // Marking on pop with children pushed in reverse gives recursive pre-order, without recursion.
  const pending = [...(known.get(start)?.depends_on ?? [])].reverse();
  while (pending.length > 0) {
    const id = pending.pop() as string;
    if (visited.has(id)) continue;
    visited.add(id);
    order.push(id);
    pending.push(...[...(known.get(id)?.depends_on ?? [])].reverse());
  }
  return order;
}

/** Is this result consistent with its inputs: complete trace, honest v2 budget accounting? */
export function validateResult(
  result: CompilationResult,
  request: ContextRequest,
  candidates: readonly ContextCandidate[],
): string[] {
  const problems: string[] = [];
  const known = new Map(candidates.map((c) => [c.candidate_id, c]));
  const traced = new Set(result.trace.entries.map((e) => e.candidate_id));
  if (result.success) {
    const complete = traced.size === known.size && [...known.keys()].every((id) => traced.has(id));
    if (!complete) problems.push(`trace covers ${traced.size} of ${known.size} considered candidates`);
  } else if ([...traced].some((id) => !known.has(id))) {
    problems.push('trace references unconsidered candidates');
  }
  if (result.trace.request_id !== request.request_id) problems.push('trace request mismatch');
  if (result.success && result.failure !== null) problems.push('success carries a failure');
  if (!result.success && result.failure === null) problems.push('failure carries no failure record');
  if (!result.success && result.bundle_id !== null) problems.push('failure carries a bundle identity');
  if (result.trace.schema_version.endsWith('.v1')) return problems;
  for (const e of result.trace.entries) {
    const c = known.get(e.candidate_id);
    if (c === undefined) continue;
    const deps = dependenciesOf(e.candidate_id, known);
    if (deps.length !== e.dependency_closure.length || deps.some((d, k) => d !== e.dependency_closure[k])) {
      problems.push(`trace closure wrong for ${e.candidate_id}`);
    }
    if (e.decision === 'ADMITTED') {
      if (e.budget_before - e.budget_after < c.token_count) {
        problems.push(`trace budget did not advance for ${e.candidate_id}`);
      }
    } else {
      if (e.budget_after > e.budget_before) problems.push(`trace budget rose for ${e.candidate_id}`);
      if (e.pulled_in_by.length > 0) problems.push(`trace pulled-in-by on non-admission ${e.candidate_id}`);
    }
  }
  return problems;
}
