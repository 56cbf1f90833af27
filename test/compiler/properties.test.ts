import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  bundleToJSON,
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
 * names; the others are further reference behaviours the random pools reach.
 */
function legalityHoles(request: ContextRequest, pool: readonly ContextCandidate[], ids: readonly string[]) {
  const byId = new Map(pool.map((c) => [c.candidate_id, c]));
  const inside = new Set(ids);
  const identities = new Set(ids.map((id) => byId.get(id)?.content_identity));
  const labels: string[] = [];
  for (const id of request.required_ids) {
    if (inside.has(id) || !byId.has(id)) continue;
    labels.push(
      eligible(byId.get(id)!) ? 'named form displaced by another form' : '(a) named candidate fails a gate',
    );
  }
  const requiredContents = new Set(
    pool
      .filter((c) => ['MANDATORY', 'REQUIRED'].includes(classOf(c, request)))
      .map((c) => c.content_identity),
  );
  for (const identity of requiredContents) {
    if (identities.has(identity)) continue;
    const legal = pool.some(
      (c) =>
        c.content_identity === identity &&
        eligible(c) &&
        ['MANDATORY', 'REQUIRED'].includes(classOf(c, request)),
    );
    labels.push(
      legal
        ? 'REQUIRED content absent though legal (e.g. repair drops a group_id mate)'
        : '(a) REQUIRED content has no legal form',
    );
  }
  const groups = new Map<string, ContextCandidate[]>();
  for (const c of pool)
    if (c.group_id && c.group_required) groups.set(c.group_id, [...(groups.get(c.group_id) ?? []), c]);
  for (const members of groups.values()) {
    const n = members.filter((m) => inside.has(m.candidate_id)).length;
    if (n === 0 || n === members.length) continue;
    const classes = new Set(members.map((m) => classOf(m, request)));
    if (classes.size > 1) labels.push('(b) required group split by promotion');
    else if (members.some((m) => !eligible(m)))
      labels.push('required group admitted without its ineligible member');
    else labels.push('required group member displaced or pulled in alone');
  }
  const seen = new Set<string>();
  for (const id of ids) {
    const c = byId.get(id)!;
    if (seen.has(c.content_identity)) labels.push('dependency admits a second form of admitted content');
    seen.add(c.content_identity);
    if (c.depends_on.some((d) => !inside.has(d)))
      labels.push('repair drops a group mate that is still needed');
  }
  return labels;
}

function compileBoth(request: ContextRequest, candidates: readonly ContextCandidate[], p: CompilerPolicy) {
  const out = compileContext(request, candidates, p);
  return { out, ids: out.bundle?.items.map((i) => i.id) ?? [] };
}

describe(`the compiler on random pools (fast-check seed ${SEED})`, () => {
  const numRuns = runs(400, 20_000);

  it.each([
    ['reference', policy()],
    ['refuse', strictPolicy()],
  ] as const)('never exceeds the budget (%s policy)', (_name, p) => {
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

  it('is invariant to the order of its input', () => {
    fc.assert(
      fc.property(randomCase(), fc.nat(), ({ request, candidates }, salt) => {
        const bytes = (list: readonly ContextCandidate[]) => {
          const out = compileContext(request, list, policy());
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
        const { out, ids } = compileBoth(request, candidates, policy());
        expect(validateResult(out.result, request, candidates)).toEqual([]);
        if (!out.bundle) return;
        const labels = legalityHoles(request, candidates, ids);
        for (const l of new Set(labels)) counts.set(l, (counts.get(l) ?? 0) + 1);
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
        const { out, ids } = compileBoth(request, candidates, strictPolicy());
        expect(validateResult(out.result, request, candidates)).toEqual([]);
        if (!out.bundle) return;
        successes++;
        expect(validateBundle(out.bundle, request, candidates)).toEqual([]);
        expect(legalityHoles(request, candidates, ids)).toEqual([]);
        expect(out.result.failure).toBeNull();
      }),
      { seed: SEED, numRuns },
    );
    expect(successes).toBeGreaterThan(numRuns / 10);
  });
});
