import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  bundleToJSON,
  type CompileOutput,
  type CompilerPolicy,
  type ContextCandidate,
  type ContextRequest,
  compileContext,
  renderedCost,
  resultToJSON,
  validateBundle,
  validateResult,
} from '../../src/compiler/index.js';
import { randomCase, runs } from '../helpers/arbitrary.js';
import { policy, strictPolicy } from '../helpers/pool.js';

const SEED = 20261130;
const eligible = (c: ContextCandidate) =>
  c.scope_eligible && c.freshness_eligible && c.authority_eligible && c.form_rank >= c.min_rank;

/** Effective class, restated from the spec: a named form is REQUIRED unless it is MANDATORY. */
const classOf = (c: ContextCandidate, request: ContextRequest) =>
  request.required_ids.includes(c.candidate_id) && c.requirement !== 'MANDATORY' ? 'REQUIRED' : c.requirement;

/**
 * Why a successful bundle is not legal, one label per problem: the validators' problems plus
 * MANDATORY or REQUIRED content that is absent. Labels (a) and (b) are the two holes the issue
 * names; the others are further reference behaviours the random pools reach. Each label is
 * checked against the trace; a problem no label explains is `unexplained`, which fails the test.
 */
function legalityHoles(request: ContextRequest, pool: readonly ContextCandidate[], out: CompileOutput) {
  const { result } = out;
  const ids = out.bundle?.items.map((i) => i.id) ?? [];
  const trace = new Map(result.trace.entries.map((e) => [e.candidate_id, e]));
  const byId = new Map(pool.map((c) => [c.candidate_id, c]));
  const inside = new Set(ids);
  const identities = new Set(ids.map((id) => byId.get(id)?.content_identity));
  const repaired = (c: ContextCandidate) => trace.get(c.candidate_id)?.reason_code === 'repair-drop';
  const pulled = (c: ContextCandidate) => (trace.get(c.candidate_id)?.pulled_in_by.length ?? 0) > 0;
  const formsOf = (identity: string) => pool.filter((c) => c.content_identity === identity);
  const labels: string[] = [];
  for (const id of request.required_ids) {
    const c = byId.get(id);
    if (inside.has(id) || c === undefined) continue;
    if (!eligible(c)) labels.push('(a) named candidate fails a gate');
    else if (identities.has(c.content_identity)) labels.push('named form displaced by another form');
    else if (formsOf(c.content_identity).some(repaired))
      labels.push('repair drops required content sharing a group_id');
    else labels.push('unexplained: named form absent');
  }
  const required = new Set(
    pool
      .filter((c) => ['MANDATORY', 'REQUIRED'].includes(classOf(c, request)))
      .map((c) => c.content_identity),
  );
  for (const identity of required) {
    if (identities.has(identity)) continue;
    const forms = formsOf(identity).filter((c) => ['MANDATORY', 'REQUIRED'].includes(classOf(c, request)));
    if (!forms.some(eligible)) labels.push('(a) REQUIRED content has no legal form');
    else if (forms.some(repaired)) labels.push('repair drops required content sharing a group_id');
    else labels.push('unexplained: required content absent');
  }
  const groups = new Map<string, ContextCandidate[]>();
  for (const c of pool)
    if (c.group_id && c.group_required) groups.set(c.group_id, [...(groups.get(c.group_id) ?? []), c]);
  for (const members of groups.values()) {
    const n = members.filter((m) => inside.has(m.candidate_id)).length;
    if (n === 0 || n === members.length) continue;
    const out = members.filter((m) => !inside.has(m.candidate_id));
    if (new Set(members.map((m) => classOf(m, request))).size > 1)
      labels.push('(b) required group split by promotion');
    else if (out.some((m) => !eligible(m)))
      labels.push('required group admitted without its ineligible member');
    else if (out.some((m) => identities.has(m.content_identity)))
      labels.push('group member displaced by another form');
    else if (members.some((m) => inside.has(m.candidate_id) && pulled(m)))
      labels.push('a dependency pulls in part of a group');
    else if (out.some(repaired)) labels.push('repair drops part of a group');
    else labels.push('unexplained: group split');
  }
  const seen = new Set<string>();
  for (const id of ids) {
    const c = byId.get(id)!;
    if (seen.has(c.content_identity)) {
      const twins = ids.map((x) => byId.get(x)!).filter((x) => x.content_identity === c.content_identity);
      // Pulled in as a dependency; or pulled in and then closed out as an alternative by the
      // REQUIRED stage (its entry overwritten, the candidate still in the bundle).
      const hidden = (x: ContextCandidate) => trace.get(x.candidate_id)?.decision !== 'ADMITTED';
      // Or a required group, admitted whole, brings a member whose content is already in
      // (the block check skips members: docs/compiler.md §17.4).
      const grouped = (x: ContextCandidate) => Boolean(x.group_id && x.group_required);
      labels.push(
        twins.some((x) => pulled(x) || hidden(x))
          ? 'a dependency admits a second form'
          : twins.some(grouped)
            ? 'a group brings a second form of admitted content'
            : 'unexplained: two forms',
      );
    }
    seen.add(c.content_identity);
    for (const d of c.depends_on) {
      if (inside.has(d)) continue;
      labels.push(
        repaired(byId.get(d)!)
          ? 'repair drops a group mate that is still needed'
          : 'unexplained: missing dependency',
      );
    }
  }
  return labels;
}

function compileBoth(request: ContextRequest, candidates: readonly ContextCandidate[], p: CompilerPolicy) {
  const out = compileContext(request, candidates, p);
  return { out, ids: out.bundle?.items.map((i) => i.id) ?? [] };
}

const POLICIES = [
  ['reference', policy()],
  ['refuse', strictPolicy()],
] as const;

describe(`the compiler on random pools (fast-check seed ${SEED})`, () => {
  const numRuns = runs(400, 20_000);

  it.each(POLICIES)('never exceeds the budget (%s policy)', (_name, p) => {
    fc.assert(
      fc.property(randomCase(), ({ request, candidates }) => {
        const { out, ids } = compileBoth(request, candidates, p);
        if (!out.result.success) return;
        const live = ids.map((id) => candidates.find((c) => c.candidate_id === id)!);
        expect(out.result.bundle_tokens).toBe(renderedCost(live, request, p));
        expect(out.result.bundle_tokens).toBeLessThanOrEqual(request.usable_token_budget);
      }),
      { seed: SEED, numRuns },
    );
  });

  it.each(POLICIES)('is invariant to the order of its input (%s policy)', (_name, p) => {
    fc.assert(
      fc.property(randomCase(), fc.nat(), ({ request, candidates }, salt) => {
        const bytes = (list: readonly ContextCandidate[]) => {
          const out = compileContext(request, list, p);
          return JSON.stringify([out.bundle && bundleToJSON(out.bundle), resultToJSON(out.result)]);
        };
        const rotated = [
          ...candidates.slice(salt % candidates.length),
          ...candidates.slice(0, salt % candidates.length),
        ];
        expect(bytes([...rotated].reverse())).toBe(bytes(candidates));
      }),
      { seed: SEED, numRuns },
    );
  });

  it('under the reference policy, every illegal success is one of the named reference holes', () => {
    const counts = new Map<string, number>();
    fc.assert(
      fc.property(randomCase(), ({ request, candidates }) => {
        const { out } = compileBoth(request, candidates, policy());
        expect(validateResult(out.result, request, candidates)).toEqual([]);
        if (!out.bundle) return;
        const labels = legalityHoles(request, candidates, out);
        for (const l of new Set(labels)) counts.set(l, (counts.get(l) ?? 0) + 1);
        expect(labels.filter((l) => l.startsWith('unexplained'))).toEqual([]);
        // Every validator problem must be explained by a label.
        if (validateBundle(out.bundle, request, candidates).length > 0)
          expect(labels.length).toBeGreaterThan(0);
      }),
      { seed: SEED, numRuns },
    );
    console.log(`reference holes over ${numRuns} random pools:`, Object.fromEntries([...counts].sort()));
    expect(counts.get('(a) named candidate fails a gate')).toBeGreaterThan(0);
    expect(counts.get('(a) REQUIRED content has no legal form')).toBeGreaterThan(0);
    expect(counts.get('(b) required group split by promotion')).toBeGreaterThan(0);
  });

  it('under required_missing "refuse", every success is legal and the validators agree', () => {
    let successes = 0;
    fc.assert(
      fc.property(randomCase(), ({ request, candidates }) => {
        const { out } = compileBoth(request, candidates, strictPolicy());
        expect(validateResult(out.result, request, candidates)).toEqual([]);
        if (!out.bundle) return;
        successes++;
        expect(validateBundle(out.bundle, request, candidates)).toEqual([]);
        expect(legalityHoles(request, candidates, out)).toEqual([]);
        expect(out.result.failure).toBeNull();
      }),
      { seed: SEED, numRuns },
    );
    expect(successes).toBeGreaterThan(numRuns / 10);
  });
});
