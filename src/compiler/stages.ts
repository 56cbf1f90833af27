import type { CompileState } from './state.js';
import type { ContextCandidate, FailureReason, RequirementClass } from './types.js';

/** A stage's refusal; the engine turns it into the failure record. */
export interface Refusal {
  readonly reason: FailureReason;
  readonly blocking: readonly string[];
  readonly diagnostic: string;
}

const refuse = (reason: FailureReason, blocking: readonly string[], diagnostic: string): Refusal => ({
  reason,
  blocking,
  diagnostic,
});

const ids = (unit: readonly ContextCandidate[]): string[] => unit.map((c) => c.candidate_id);

/** No eligible form: all of them below their floor is a representation problem, else eligibility. */
function noEligibleForm(s: CompileState, forms: readonly ContextCandidate[]): FailureReason {
  const floorOnly =
    forms.length > 0 && forms.every((f) => s.pool.verdict(f.candidate_id).code === 'illegal_representation');
  return floorOnly ? 'NO_LEGAL_REPRESENTATION' : 'REQUIRED_INELIGIBLE';
}

/** Forms ordered by what each costs alone, then id: the `cheapest` rule. */
function cheapestFirst(s: CompileState, forms: readonly ContextCandidate[]): ContextCandidate[] {
  const cost = new Map(forms.map((f) => [f.candidate_id, s.price([f.candidate_id]).cost]));
  return [...forms].sort(
    (a, b) =>
      (cost.get(a.candidate_id) as number) - (cost.get(b.candidate_id) as number) ||
      (a.candidate_id < b.candidate_id ? -1 : 1),
  );
}

/** Section 7.1: a named id that is not a candidate at all. Runs before anything is traced. */
export function checkRequiredSources(s: CompileState): Refusal | null {
  const missing = [...new Set(s.pool.request.required_ids.filter((id) => !s.pool.has(id)))].sort();
  if (missing.length === 0) return null;
  return refuse(
    'REQUIRED_SOURCE_UNAVAILABLE',
    missing,
    `explicitly required candidates absent: ${missing.join(', ')}`,
  );
}

/** Section 7.2: every candidate failing a gate is rejected, in input order, at the full budget. */
export function hardGatePass(s: CompileState): void {
  for (const c of s.pool.candidates) {
    const f = s.pool.fact(c.candidate_id);
    if (!f.eligible) s.rejectFact(f, 'REJECTED_HARD', f.verdict.code, f.verdict.detail, 0);
  }
}

/**
 * Refuse mode only: a named candidate must be a member, so one that fails a gate, or two named
 * forms of one content, can never give a legal bundle. The reference goes on and omits them.
 */
export function checkNamedCandidates(s: CompileState): Refusal | null {
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

/**
 * Section 7.3: each MANDATORY content, identities in sorted order, takes its cheapest eligible
 * form that fits (with its whole required group). A form that fits but is blocked refuses
 * outright: there is no fallback to a dearer form.
 */
export function mandatoryStage(s: CompileState): Refusal | null {
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
    if (eligible.length === 0) return noLegalForm(s, 'mandatory', identity, forms);
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

/** No eligible form: the refusal, named like the mandatory stage's. */
function noLegalForm(
  s: CompileState,
  stage: 'mandatory' | 'required',
  identity: string,
  forms: readonly ContextCandidate[],
): Refusal {
  const reason = noEligibleForm(s, forms);
  const why = reason === 'NO_LEGAL_REPRESENTATION' ? 'all forms violate floor' : 'no hard-eligible form';
  return refuse(reason, [identity], `${stage} ${identity}: ${why}`);
}

/**
 * Refuse mode only: REQUIRED content whose REQUIRED forms all fail a gate is placed in another
 * legal form of the same content when it has one (any class, outside required groups), and
 * refuses like MANDATORY content when it has none. The reference silently leaves it out.
 */
function requiredFallbacks(s: CompileState): Refusal | Map<string, ContextCandidate[]> {
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
    if (others.length === 0) return noLegalForm(s, 'required', identity, forms);
    fallbacks.set(identity, others);
  }
  return fallbacks;
}

/**
 * Section 7.4: required groups first (whole or refuse), then each REQUIRED content takes its
 * cheapest fitting form; its other forms are closed out as alternatives.
 */
export function requiredStage(s: CompileState): Refusal | null {
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

/** Section 7.5: the unchosen MANDATORY forms of admitted contents. */
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

type RankKey = readonly [number, number, number, string];

const rankBefore = (a: RankKey, b: RankKey): boolean => {
  for (let k = 0; k < 3; k++) {
    if ((a[k] as number) !== (b[k] as number)) return (a[k] as number) < (b[k] as number);
  }
  return a[3] < b[3];
};

/**
 * Section 7.6, spec-literal (the reference the fast stage in greedy.ts is tested against):
 * rounds of ranking every open unit of the band; the best is committed and the round starts
 * again. Rejections are terminal: the budget only shrinks and coverage only grows.
 * Relevance dominates coverage, which dominates cost.
 */
export function greedyStageReference(
  s: CompileState,
  band: RequirementClass & ('PREFERRED' | 'DISCRETIONARY'),
): void {
  const tag = band === 'PREFERRED' ? 'preferred-greedy' : 'discretionary-greedy';
  const threshold = s.pool.policy.min_discretionary_relevance;
  for (;;) {
    let best: { key: RankKey; unit: string[] } | null = null;
    for (const unit of s.bandUnits(band)) {
      const unitIds = ids(unit);
      const { cost, nodes } = s.price(unitIds);
      const untraced = unit.filter((m) => !s.entries.has(m.candidate_id));
      const rejectAll = (
        decision: 'REJECTED_DEPENDENCY' | 'REJECTED_BUDGET' | 'REJECTED_REDUNDANT',
        code: string,
        detail: string,
      ) => {
        for (const m of untraced) s.reject(m, decision, code, detail, cost);
      };
      if (s.blockText(unitIds, nodes)) {
        rejectAll('REJECTED_DEPENDENCY', 'dependency-blocked', 'dependency ineligible or collides');
        continue;
      }
      const newCoverage = new Set(unit.flatMap((m) => m.coverage_keys).filter((k) => !s.covered.has(k))).size;
      const bestRelevance = Math.max(...unit.map((m) => m.relevance));
      if (cost > s.remaining) {
        rejectAll('REJECTED_BUDGET', 'budget', 'unit exceeds remaining budget');
        continue;
      }
      if (bestRelevance < threshold && newCoverage === 0) {
        rejectAll('REJECTED_REDUNDANT', 'no-earn', 'below relevance threshold with no new coverage');
        continue;
      }
      const key: RankKey = [-bestRelevance, -newCoverage, cost, unitIds[0] as string];
      if (best === null || rankBefore(key, best.key)) best = { key, unit: unitIds };
    }
    if (best === null) return;
    s.commit(s.price(best.unit), tag, best.unit);
  }
}

/** Section 7.7: every candidate still without an entry is an alternative or did not fit. */
export function finalCloseOut(s: CompileState): void {
  for (const f of s.pool.facts) {
    if (f.entry !== undefined) continue;
    if (f.content.admitted) {
      s.rejectFact(
        f,
        'REJECTED_ALTERNATIVE',
        'alternative_selected',
        'another form of this content admitted',
        0,
      );
    } else {
      const { cost } = s.price([f.c.candidate_id]);
      s.rejectFact(f, 'REJECTED_BUDGET', 'budget', 'no remaining budget path admits this record', cost);
    }
  }
}
