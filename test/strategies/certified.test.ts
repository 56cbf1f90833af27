/**
 * compiler-v2 certified by `exact`'s engines (issue 22): the pools where the planner alone
 * refused although a legal bundle exists, budgets at exactly the least legal cost, proven and
 * unproven refusals, and the gap a bundle carries.
 */
import { describe, expect, it } from 'vitest';
import { type ContextCandidate, compileContext, validateResult } from '../../src/compiler/index.js';
import { generateCase } from '../../src/harness/generate/index.js';
import { auditOf, certified, loadExact, objectiveOf } from '../../src/harness/kit/index.js';
import { compileAwaited } from '../../src/harness/session/index.js';
import type { Selection, StrategyInput } from '../../src/harness/types.js';
import v2 from '../../strategies/compiler-v2.js';
import { inputAt } from '../helpers/generated.js';
import { cand, policy, req, v2Policy } from '../helpers/pool.js';

const { solveExact, leastLegalCost, DEFAULT_ILP_LIMITS } = await loadExact();

/**
 * Three REQUIRED contents, each a 100-token full form or a 10-token reference that needs both of
 * two 120-token tools. All three references and both tools (30 + 240 tokens of items) undercut
 * the three full forms (300): the planner weighs one shared dependency at a time and misses it.
 */
function sharedPair(): ContextCandidate[] {
  const tool = (id: string) =>
    cand(id, { token_count: 120, kind: 'tool', order_role: 'tools', relevance: 0.2 });
  const pool: ContextCandidate[] = [tool('tool-a'), tool('tool-b')];
  for (const n of ['one', 'two', 'three']) {
    pool.push(cand(`${n}-full`, { content_identity: n, token_count: 100, requirement: 'REQUIRED' }));
    pool.push(
      cand(`${n}-ref`, {
        content_identity: n,
        representation_id: 'reference',
        form_rank: 0,
        is_default_form: false,
        token_count: 10,
        requirement: 'REQUIRED',
        depends_on: ['tool-a', 'tool-b'],
      }),
    );
  }
  return pool;
}

const inputOf = (candidates: readonly ContextCandidate[], budget: number): StrategyInput => ({
  request: req(budget),
  candidates,
  policy: policy(),
  budget,
});

/** The least legal cost `exact`'s integer program proves, whatever the budget. */
function least(candidates: readonly ContextCandidate[]): number {
  const { cost, proven } = leastLegalCost(inputOf(candidates, 0), DEFAULT_ILP_LIMITS);
  expect(proven).toBe(true);
  return cost;
}

const planner = (input: StrategyInput) => compileContext(input.request, input.candidates, v2Policy());

const extrasOf = (s: Selection): Record<string, unknown> => ({ ...(s.extras ?? {}) });

describe('the shared pair of dependencies', () => {
  const pool = sharedPair();
  const need = least(pool);

  it('at the least legal cost: the planner alone refuses, certified it returns exact’s bundle', async () => {
    const input = inputOf(pool, need);
    expect(planner(input).bundle).toBeNull();
    const out = await certified(input, planner(input));
    expect('admitted' in out && [...out.admitted].sort()).toEqual(
      ['one-ref', 'three-ref', 'tool-a', 'tool-b', 'two-ref'].sort(),
    );
    expect(extrasOf(out)).toMatchObject({ planner: 'refused', proof: 'optimal', gap: 0 });
    const exact = solveExact(input);
    expect('admitted' in exact && [...exact.admitted].sort()).toEqual(
      'admitted' in out && [...out.admitted].sort(),
    );
    const run = await compileAwaited(v2, input);
    expect(run.outcome).toBe('bundle');
    if (run.outcome === 'bundle') expect(auditOf(input, run.admitted).legal).toBe(true);
  });

  it('one token below it: a refusal with its proof, the least legal cost as exact proves it', async () => {
    const input = inputOf(pool, need - 1);
    const out = await certified(input, planner(input));
    expect('refusal' in out).toBe(true);
    if (!('refusal' in out)) return;
    expect(extrasOf(out)).toMatchObject({ proof: 'infeasible', least_legal_cost: need });
    expect(String(extrasOf(out).proof_text)).toContain(
      `proven: the least legal cost is ${need} > budget ${need - 1}; `,
    );
    expect(out.refusal.diagnostic).toBe(planner(input).result.failure?.diagnostic);
    // The planner's refusal stands as it wrote it: reason, diagnostic, trace; the proof beside it.
    const alone = planner(input);
    expect(out.refusal.reason).toBe(alone.result.failure?.reason);
    expect(out.refusal.diagnostic).toBe(alone.result.failure?.diagnostic);
    expect(out.trace).toEqual(alone.result.trace.entries);
    const run = await compileAwaited(v2, input);
    expect(run.outcome).toBe('refusal');
    if (run.outcome === 'refusal')
      expect(validateResult(run.record, input.request, input.candidates)).toEqual([]);
  });
});

describe('budgets at exactly the least legal cost', () => {
  it.each([40, 200])(
    'generated pools of %i candidates: never a refusal, never an illegal bundle',
    async (size) => {
      for (let k = 0; k < 6; k++) {
        const g = generateCase(`certified-${size}/${k}`, size);
        const need = least(g.candidates);
        const input = {
          ...inputAt(g, 'medium'),
          budget: need,
          request: { ...g.request, usable_token_budget: need },
        };
        const out = await certified(input, planner(input));
        expect('admitted' in out, `${size}/${k}`).toBe(true);
        if ('admitted' in out) expect(auditOf(input, out.admitted).legal, `${size}/${k}`).toBe(true);
        expect(extrasOf(out).gap, `${size}/${k}`).toBe(0);
      }
    },
  );
});

describe('what a bundle carries', () => {
  it('the planner’s own answer, byte for byte, where it is already the best', async () => {
    const pool = [
      cand('a', { requirement: 'REQUIRED' }),
      cand('b', { relevance: 0.9 }),
      cand('c', { relevance: 0.1 }),
    ];
    const input = inputOf(pool, 200);
    const alone = planner(input);
    const out = await certified(input, alone);
    expect('admitted' in out && out.admitted).toEqual(alone.bundle?.items.map((i) => i.id));
    expect(out.trace).toEqual(alone.result.trace.entries);
    expect(extrasOf(out)).toMatchObject({ planner: 'kept', proof: 'optimal', gap: 0, proven_optimal: true });
  });

  it('past the work limit, a bound no legal bundle beats and the gap to it', async () => {
    const g = generateCase('certified-gap', 200);
    const input = inputAt(g, 'roomy');
    const out = await certified(input, planner(input), {
      nodes: 3,
      work: Number.POSITIVE_INFINITY,
      ilp: DEFAULT_ILP_LIMITS,
      ilpCandidates: 0,
    });
    const x = extrasOf(out) as {
      proof: string;
      gap: number;
      bound: { preferred: number };
      objective: { preferred: number };
    };
    expect(x.proof).toBe('bounded');
    const best = solveExact(input);
    expect('admitted' in best).toBe(true);
    if (!('admitted' in best)) return;
    // The bound is above the true optimum, and the gap is the distance from the bundle to it.
    expect(x.bound.preferred).toBeGreaterThanOrEqual(objectiveOf(input, best.admitted).preferred - 1e-9);
    expect(x.gap).toBeCloseTo(Math.max(0, x.bound.preferred - x.objective.preferred), 9);
  });

  it('a large pool gets fewer nodes: the work limit is nodes times contents', async () => {
    const input = inputAt(generateCase('certified-gap', 200), 'roomy');
    const limits = { nodes: 20_000, ilp: DEFAULT_ILP_LIMITS, ilpCandidates: 0 };
    const roomy = await certified(input, planner(input), { ...limits, work: Number.POSITIVE_INFINITY });
    const scarce = await certified(input, planner(input), { ...limits, work: 1 });
    expect(extrasOf(roomy)).toMatchObject({ proof: 'optimal' });
    expect(extrasOf(scarce)).toMatchObject({ proof: 'bounded', nodes: 2 });
  });

  it('a refusal the work limit could not prove says so', async () => {
    const pool = sharedPair();
    const input = inputOf(pool, least(pool) - 1);
    const out = await certified(input, planner(input), {
      nodes: 1,
      work: Number.POSITIVE_INFINITY,
      ilp: { nodes: 1, iterations: 1 },
      ilpCandidates: 0,
    });
    expect('refusal' in out).toBe(true);
    expect(extrasOf(out)).toMatchObject({
      proof: 'unproven',
      proof_text: 'unproven: no legal bundle found, and none proven impossible, within the work limit',
    });
  });
});
