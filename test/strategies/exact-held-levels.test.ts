/**
 * `exact`'s integer program solves level by level (preferred relevance, then discretionary, then
 * cost), each level holding the ones above as rows. Only the first level can prove that no legal
 * bundle exists: below it the bundle of the level above satisfies every held row. HiGHS has said
 * "infeasible" of such a level (a held row over thousands of fractional relevances, its
 * right-hand side in the millions, on an ingested history), and `exact` then refused a budget of
 * 64,000 tokens claiming a least legal cost of 66. Here the solver is made to say it at each level
 * in turn.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { legalityProblems } from '../../src/harness/kit/index.js';
import type { StrategyInput } from '../../src/harness/types.js';
import { cand, policy, req } from '../helpers/pool.js';

/** The solve, counted from 1, that answers "infeasible" (0: none). */
const lie = vi.hoisted(() => ({ at: 0, calls: 0 }));
vi.mock('../../src/harness/kit/exact/highs.js', async (real) => {
  const mod = await real<typeof import('../../src/harness/kit/exact/highs.js')>();
  return {
    ...mod,
    solveLp: (text: string, limits: { nodes: number; iterations: number }) => {
      lie.calls++;
      return lie.calls === lie.at ? { status: 'infeasible' as const } : mod.solveLp(text, limits);
    },
  };
});
const { optimise } = await import('../../src/harness/kit/exact/optimise.js');

afterEach(() => {
  lie.at = 0;
  lie.calls = 0;
});

// A task, a preferred file and discretionary ones of several relevances: every level is solved.
const input: StrategyInput = (() => {
  const candidates = [
    cand('task', { requirement: 'MANDATORY', token_count: 20 }),
    cand('named', { requirement: 'PREFERRED', relevance: 0.4, token_count: 100 }),
    cand('a', { relevance: 0.2, token_count: 120 }),
    cand('b', { relevance: 0.00012, token_count: 30 }),
    cand('c', { relevance: 0.05, token_count: 60 }),
    cand('d', { relevance: 0.3, token_count: 400 }),
  ];
  const request = req(400);
  return { request, candidates, policy: { ...policy(), min_discretionary_relevance: 0.0001 }, budget: 400 };
})();

describe("exact's held levels", () => {
  it('solves every level when the solver tells the truth', () => {
    const out = optimise(input, { nodes: 1000, iterations: 100_000 });
    expect(out.status).toBe('optimal');
    expect(lie.calls).toBeGreaterThan(2);
  });

  it('the first level saying "infeasible" is a refusal', () => {
    lie.at = 1;
    expect(optimise(input, { nodes: 1000, iterations: 100_000 }).status).toBe('infeasible');
  });

  it('a lower level saying "infeasible" is the bundle of the level above, legal and unproven', () => {
    for (const at of [2, 3]) {
      lie.at = at;
      lie.calls = 0;
      const out = optimise(input, { nodes: 1000, iterations: 100_000 });
      expect(out.status, `solve ${at}`).toBe('limit');
      const ids = out.status === 'limit' ? out.ids : null;
      expect(ids, `solve ${at}`).not.toBeNull();
      expect(legalityProblems(input, ids ?? []), `solve ${at}`).toEqual([]);
      expect(ids).toContain('task');
      expect(ids).toContain('named');
    }
  });
});
