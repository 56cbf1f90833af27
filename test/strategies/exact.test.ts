import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type CompilerPolicy,
  type ContextCandidate,
  type ContextRequest,
  compileContext,
  renderedCost,
  validateBundle,
  validateResult,
} from '../../src/compiler/index.js';
import type { Certificate } from '../../src/harness/kit/index.js';
import { loadExact } from '../../src/harness/kit/index.js';
import type { Selection, StrategyInput } from '../../src/harness/types.js';
import exact from '../../strategies/exact.js';
import { randomCase, runs } from '../helpers/arbitrary.js';
import { asBundle, measured } from '../helpers/compiled.js';
import { cand, policy, req } from '../helpers/pool.js';

const { solveExact } = await loadExact();

const SEED = 4242;
const inputOf = (
  request: ContextRequest,
  candidates: readonly ContextCandidate[],
  p: CompilerPolicy = policy(),
) => ({ request, candidates, policy: p, budget: request.usable_token_budget }) satisfies StrategyInput;
const ids = (s: Selection) => ('admitted' in s ? [...s.admitted].sort() : null);

/*
 * Brute force, written apart from the solver: every choice of at most one candidate per content,
 * checked against the legality rules and scored with the objective, both restated here.
 */
const eligible = (c: ContextCandidate) =>
  c.scope_eligible && c.freshness_eligible && c.authority_eligible && c.form_rank >= c.min_rank;

function bruteForce(input: StrategyInput): { ids: string[]; key: [number, number, number] } | null {
  const { candidates, request } = input;
  const named = request.required_ids;
  const klass = (c: ContextCandidate) =>
    named.includes(c.candidate_id) && c.requirement !== 'MANDATORY' ? 'REQUIRED' : c.requirement;
  const identities = [...new Set(candidates.map((c) => c.content_identity))];
  const must = new Set(
    candidates.filter((c) => ['MANDATORY', 'REQUIRED'].includes(klass(c))).map((c) => c.content_identity),
  );
  const legal = (set: ContextCandidate[]) => {
    const inside = new Set(set.map((c) => c.candidate_id));
    if (!set.every(eligible)) return false;
    if (!set.every((c) => c.depends_on.every((d) => inside.has(d)))) return false;
    for (const c of candidates) {
      if (!(c.group_id && c.group_required)) continue;
      const mates = candidates.filter((m) => m.group_id === c.group_id && m.group_required);
      const n = mates.filter((m) => inside.has(m.candidate_id)).length;
      if (n > 0 && n < mates.length) return false;
    }
    const present = new Set(set.map((c) => c.content_identity));
    if (![...must].every((i) => present.has(i))) return false;
    if (!named.every((id) => inside.has(id))) return false;
    return renderedCost(set, request, input.policy) <= input.budget;
  };
  const score = (set: ContextCandidate[]): [number, number, number] => {
    let p = 0;
    let d = 0;
    for (const c of [...set].sort((a, b) => (a.candidate_id < b.candidate_id ? -1 : 1))) {
      const unique = c.coverage_keys.some((k) => set.filter((o) => o.coverage_keys.includes(k)).length === 1);
      if (!(c.relevance >= input.policy.min_discretionary_relevance || unique)) continue;
      if (klass(c) === 'PREFERRED') p += c.relevance;
      if (klass(c) === 'DISCRETIONARY') d += c.relevance;
    }
    return [p, d, -renderedCost(set, request, input.policy)];
  };
  const better = (a: { ids: string[]; key: number[] }, b: { ids: string[]; key: number[] }) => {
    for (let k = 0; k < 3; k++) {
      const x = a.key[k] as number;
      const y = b.key[k] as number;
      if (Math.abs(x - y) > 1e-9) return x > y;
    }
    return (
      a.ids.join('\n') < b.ids.join('\n') ||
      (b.ids.join('\n').startsWith(a.ids.join('\n')) && a.ids.length < b.ids.length)
    );
  };
  let best: { ids: string[]; key: [number, number, number] } | null = null;
  const walk = (k: number, set: ContextCandidate[]) => {
    if (k === identities.length) {
      if (!legal(set)) return;
      const found = { ids: set.map((c) => c.candidate_id).sort(), key: score(set) };
      if (best === null || better(found, best)) best = found;
      return;
    }
    walk(k + 1, set);
    for (const c of candidates.filter((x) => x.content_identity === identities[k])) walk(k + 1, [...set, c]);
  };
  walk(0, []);
  return best;
}

describe('exact finds the bundle the compiler falsely refuses', () => {
  it('a mandatory content whose cheapest form is blocked (the compiler has no fallback)', () => {
    const M = { requirement: 'MANDATORY' as const, content_identity: 'X' };
    const pool = [
      cand('x-cheap', { ...M, token_count: 10, depends_on: ['bad'] }),
      cand('bad', { token_count: 5, scope_eligible: false }),
      cand('x-full', { ...M, token_count: 50 }),
    ];
    const input = inputOf(req(200), pool);
    expect(compileContext(input.request, pool, input.policy).result.failure?.reason).toBe(
      'UNSATISFIED_DEPENDENCY',
    );
    const out = asBundle(measured(exact, input));
    expect(out.admitted).toEqual(['x-full']);
    expect(out.extras.proven_optimal).toBe(true);
    expect(validateBundle(out.bundle, input.request, pool)).toEqual([]);
  });

  it('pays 400 for a full form where the compiler pays 670 for a reference and its resolver', () => {
    const pool = [
      cand('ref', {
        content_identity: 'incident',
        requirement: 'REQUIRED',
        token_count: 20,
        depends_on: ['resolver'],
      }),
      cand('resolver', { token_count: 650, relevance: 0.2 }),
      cand('full', { content_identity: 'incident', requirement: 'REQUIRED', token_count: 400 }),
    ];
    const input = inputOf(req(1000), pool);
    expect(asBundle(measured(exact, input)).admitted).toEqual(['full']);
  });
});

describe(`exact agrees with brute force on random pools (seed ${SEED})`, () => {
  it('on feasibility and on the optimum, and every bundle passes the validators', () => {
    let feasible = 0;
    let infeasible = 0;
    fc.assert(
      fc.property(randomCase(14), ({ request, candidates }) => {
        const input = inputOf(request, candidates);
        const brute = bruteForce(input);
        const out = measured(exact, input);
        expect(out.extras.proven_optimal ?? true).toBe(true);
        if (brute === null) {
          infeasible++;
          expect(out.outcome).toBe('refusal');
          return;
        }
        feasible++;
        const bundle = asBundle(out);
        expect([...bundle.admitted].sort()).toEqual(brute.ids);
        expect(validateBundle(bundle.bundle, request, candidates)).toEqual([]);
        expect(validateResult(bundle.record, request, candidates)).toEqual([]);
      }),
      { seed: SEED, numRuns: runs(300, 3000) },
    );
    expect(feasible).toBeGreaterThan(50);
    expect(infeasible).toBeGreaterThan(20);
  });

  it('certifies refusals minimally: drop any requirement and a legal bundle exists', () => {
    let certified = 0;
    fc.assert(
      fc.property(randomCase(10), ({ request, candidates }) => {
        const input = inputOf(request, candidates);
        const sel = solveExact(input);
        if (!('refusal' in sel)) return;
        const cert = sel.extras?.certificate as Certificate;
        expect(cert.minimal).toBe(true);
        expect([
          'INSUFFICIENT_BUDGET',
          'UNSATISFIED_DEPENDENCY',
          'NO_LEGAL_REPRESENTATION',
          'UNRESOLVED_REQUIRED_GROUP',
          'REQUIRED_SOURCE_UNAVAILABLE',
          'REQUIRED_INELIGIBLE',
        ]).toContain(sel.refusal.reason);
        expect(cert.text.length).toBeGreaterThan(0);
        if (sel.refusal.reason === 'REQUIRED_SOURCE_UNAVAILABLE') return;
        certified++;
        const kept = cert.requirements.map((r) => `${r.kind}:${r.id}`);
        expect(bruteForce(keepOnly(input, kept)), 'the certified set alone is unsatisfiable').toBeNull();
        for (const r of kept) {
          expect(
            bruteForce(
              keepOnly(
                input,
                kept.filter((x) => x !== r),
              ),
            ),
            `without ${r}`,
          ).not.toBeNull();
        }
      }),
      { seed: SEED, numRuns: runs(200, 2000) },
    );
    expect(certified).toBeGreaterThan(10);
  });
});

/**
 * The same pool with only the given requirements kept (`named:id`, `mandatory:identity`,
 * `required:identity`, `budget:budget`): every other one is lifted.
 */
function keepOnly(input: StrategyInput, kept: readonly string[]): StrategyInput {
  const has = (kind: string, id: string) => kept.includes(`${kind}:${id}`);
  const budget = has('budget', 'budget') ? input.budget : 1e9;
  const required_ids = input.request.required_ids.filter((id) => has('named', id));
  const lift = (c: ContextCandidate): ContextCandidate =>
    has('mandatory', c.content_identity) || has('required', c.content_identity)
      ? c
      : { ...c, requirement: 'DISCRETIONARY' };
  return {
    ...input,
    budget,
    candidates: input.candidates.map(lift),
    request: { ...input.request, usable_token_budget: budget, required_ids },
  };
}

describe('the search is bounded by nodes, never by a clock', () => {
  it('past the bound it says so, and still never returns an illegal bundle', () => {
    const pool = Array.from({ length: 24 }, (_, k) =>
      cand(`c${String(k).padStart(2, '0')}`, {
        relevance: 0.3 + (k % 7) / 10,
        token_count: 10 + ((k * 37) % 50),
      }),
    );
    const input = inputOf(req(400), pool);
    const full = solveExact(input);
    expect(full.extras?.proven_optimal).toBe(true);
    for (const limit of [1, 10, 50]) {
      const capped = asBundle(
        measured(
          {
            name: 'capped',
            description: '',
            assemble: (i) => solveExact(i, { engine: 'search', nodeLimit: limit }),
          },
          input,
        ),
      );
      expect(capped.extras.proven_optimal).toBe(false);
      expect(validateBundle(capped.bundle, input.request, pool)).toEqual([]);
      expect(capped.renderedTokens).toBeLessThanOrEqual(400);
    }
    // The same call twice gives the same answer: nothing but the node count bounds the search.
    expect(ids(solveExact(input, { engine: 'search', nodeLimit: 50 }))).toEqual(
      ids(solveExact(input, { engine: 'search', nodeLimit: 50 })),
    );
  });
});
