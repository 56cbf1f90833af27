/**
 * The integer program against the branch and bound: two formulations written apart, so each
 * checks the other. They must agree on every pool the branch and bound proves, bundle for
 * bundle (tie-break included) and certificate for certificate; every bundle the program returns
 * must cost, by the model's own terms, exactly what the harness's ruler says.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type ContextCandidate,
  type ContextRequest,
  defaultPolicy,
  renderedCost,
} from '../../src/compiler/index.js';
import { generateCase } from '../../src/harness/generate/index.js';
import { BundleModel } from '../../src/harness/kit/exact/ilp.js';
import { optimise, requirementsOf } from '../../src/harness/kit/exact/optimise.js';
import { legalityProblems, loadExact } from '../../src/harness/kit/index.js';
import type { Selection, StrategyInput } from '../../src/harness/types.js';
import { BUDGETS } from '../../src/harness/vocabulary.js';
import { randomCase, runs, tieCase } from '../helpers/arbitrary.js';
import { inputAt } from '../helpers/generated.js';
import { cand, policy, req } from '../helpers/pool.js';

const { solveExact } = await loadExact();

const SEED = 90210;
const inputOf = (request: ContextRequest, candidates: readonly ContextCandidate[]): StrategyInput => ({
  request,
  candidates,
  policy: policy(),
  budget: request.usable_token_budget,
});

/** A selection without the facts that name the engine and its work. */
function answer(s: Selection): unknown {
  const { engine: _e, nodes: _n, solves: _s, ...extras } = (s.extras ?? {}) as Record<string, unknown>;
  return 'admitted' in s ? { admitted: [...s.admitted].sort(), extras } : { refusal: s.refusal, extras };
}

describe(`the integer program agrees with the branch and bound (seed ${SEED})`, () => {
  it('on small random pools and pools built to tie: the same bundle or the same certificate', () => {
    let compared = 0;
    let bundles = 0;
    fc.assert(
      fc.property(fc.oneof(randomCase(14), tieCase()), ({ request, candidates }) => {
        const input = inputOf(request, candidates);
        const search = solveExact(input, { engine: 'search' });
        if (search.extras?.proven_optimal === false) return;
        const ilp = solveExact(input, { engine: 'ilp' });
        expect(ilp.extras?.engine).toBe('ilp');
        expect(answer(ilp)).toEqual(answer(search));
        compared++;
        if ('admitted' in ilp) bundles++;
      }),
      { seed: SEED, numRuns: runs(400, 5000) },
    );
    // Both outcomes must be exercised, or agreement proves little.
    expect(bundles).toBeGreaterThan(compared / 10);
    expect(bundles).toBeLessThan(compared);
  });

  it('on generated pools of 40 to 120 candidates at three budgets', () => {
    const pools = runs(6, 60);
    let compared = 0;
    for (let k = 0; k < pools; k++) {
      const g = generateCase(`ilp-agree/${k}`, 40 + ((k * 37) % 81));
      for (const level of BUDGETS) {
        const input = inputAt(g, level);
        const search = solveExact(input, { engine: 'search' });
        if (search.extras?.proven_optimal === false) continue;
        expect(answer(solveExact(input, { engine: 'ilp' })), `pool ${k} ${level}`).toEqual(answer(search));
        compared++;
      }
    }
    expect(compared).toBeGreaterThan(pools * 2);
  });
});

describe('the integer program prices bundles as the ruler does', () => {
  it('its cost terms, at the bundle it returns, are the rendered cost less the frame', () => {
    for (let k = 0; k < runs(4, 20); k++) {
      const g = generateCase(`ilp-cost/${k}`, 150);
      const input = {
        request: g.request,
        candidates: g.candidates,
        policy: defaultPolicy(),
        budget: g.budgets.roomy,
      };
      const model = new BundleModel(input, requirementsOf(input));
      const out = optimise(input, { nodes: 100_000, iterations: 10_000_000 });
      if (out.status !== 'optimal') continue;
      const chosen = new Set(out.ids);
      const value = (column: string) => {
        if (column === 'y') return chosen.size > 0 ? 1 : 0;
        const c = model.sorted[Number(column.slice(1))] as ContextCandidate;
        return chosen.has(c.candidate_id) ? 1 : 0;
      };
      const modelled = model.costTerms.reduce((sum, [a, column]) => sum + a * value(column), model.frame);
      const live = g.candidates.filter((c) => chosen.has(c.candidate_id));
      expect(modelled).toBe(renderedCost(live, input.request, input.policy));
      expect(legalityProblems(input, out.ids)).toEqual([]);
    }
  });
});

describe('honest and repeatable', () => {
  const pools = Array.from({ length: 8 }, (_, k) => {
    const g = generateCase(`ilp-limits/${k}`, 400);
    return { request: g.request, candidates: g.candidates, policy: defaultPolicy(), budget: g.budgets.roomy };
  });

  it('gives the same answer, byte for byte, every time', () => {
    for (const input of pools.slice(0, 3))
      expect(JSON.stringify(solveExact(input, { engine: 'ilp' }))).toBe(
        JSON.stringify(solveExact(input, { engine: 'ilp' })),
      );
  });

  it('says proven_optimal: false when a limit stops it; what it returns is legal, and proven answers stand', () => {
    let stopped = 0;
    for (const input of pools) {
      const capped = solveExact(input, { engine: 'ilp', ilpLimits: { nodes: 0, iterations: 5 } });
      if (capped.extras?.proven_optimal === false) {
        stopped++;
        if ('admitted' in capped) expect(legalityProblems(input, capped.admitted)).toEqual([]);
        else expect(capped.refusal.reason).toBe('SEARCH_LIMIT');
      } else {
        expect(answer(capped)).toEqual(answer(solveExact(input, { engine: 'ilp' })));
      }
    }
    expect(stopped).toBeGreaterThan(0);
  });
});

describe('among optimal bundles that tie, the integer program returns the smallest sorted id list', () => {
  it('of interchangeable candidates, the smallest ids, whichever optimum the solver finds first', () => {
    // n candidates alike in every way but their ids, listed in a scrambled order, and a budget for
    // m of them: C(n, m) optimal bundles, of which the smallest sorted list is the m smallest ids.
    for (const [n, m] of [
      [6, 2],
      [12, 5],
      [20, 7],
    ] as const) {
      const ids = Array.from({ length: n }, (_, k) => `t${String(k).padStart(2, '0')}`);
      const scrambled = ids.map((_, k) => ids[(k * 7 + 3) % n] as string);
      expect(new Set(scrambled).size).toBe(n);
      const candidates = scrambled.map((id) => cand(id, { requirement: 'PREFERRED', relevance: 0.5 }));
      const one = renderedCost(candidates.slice(0, 1), req(0), policy());
      const each = renderedCost(candidates.slice(0, 2), req(0), policy()) - one;
      const input = inputOf(req(one + (m - 1) * each), candidates);
      const ilp = solveExact(input, { engine: 'ilp' });
      expect(ilp.extras?.proven_optimal, `${n} ${m}`).toBe(true);
      expect('admitted' in ilp && [...ilp.admitted].sort(), `${n} ${m}`).toEqual(ids.slice(0, m));
      expect(answer(ilp)).toEqual(answer(solveExact(input, { engine: 'search' })));
    }
  });
});
