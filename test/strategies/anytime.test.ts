/**
 * compiler-v2's answer now (issue 50; StrategyInput.anytime, what `pack` and MCP ask): a legal
 * bundle from a short search, never worse than the planner's, with a distance from the optimum
 * that the proven optimum never exceeds. The optimum is `exact`'s integer program, proven.
 */
import { describe, expect, it } from 'vitest';
import { type ContextCandidate, compileContext } from '../../src/compiler/index.js';
import { generateCase } from '../../src/harness/generate/index.js';
import {
  auditOf,
  certified,
  hullBound,
  hullGreedies,
  hullGreedy,
  loadExact,
  objectiveOf,
  Problem,
} from '../../src/harness/kit/index.js';
import type { Objective, Selection, StrategyInput } from '../../src/harness/types.js';
import { inputAt } from '../helpers/generated.js';
import { cand, policy, req, v2Policy } from '../helpers/pool.js';

const { solveExact, DEFAULT_ILP_LIMITS } = await loadExact();

const planner = (input: StrategyInput) => compileContext(input.request, input.candidates, v2Policy());
const extras = (s: Selection) =>
  (s.extras ?? {}) as { within_percent?: number; objective?: Objective; proof?: string };

/** The proven optimum's objective, or null when no legal bundle exists. */
function optimum(input: StrategyInput): Objective | null {
  const best = solveExact(input);
  expect((best.extras as { proven_optimal?: boolean }).proven_optimal ?? 'refusal' in best).toBeTruthy();
  return 'admitted' in best ? objectiveOf(input, best.admitted) : null;
}

/**
 * Files as a repository gives them: each a full text and an outline a tenth its size holding a
 * fifth of its chance. The branch and bound's root bound prices every file's full chance at its
 * outline's cost, so it lies far above anything reachable; the hull's does not.
 */
function files(n: number): ContextCandidate[] {
  return Array.from({ length: n }, (_, k) => {
    const chance = 0.02 + ((k * 37) % 11) / 200;
    const size = 400 + ((k * 53) % 17) * 40;
    return [
      cand(`f${k}`, { content_identity: `f${k}`, token_count: size, relevance: chance }),
      cand(`f${k}#outline`, {
        content_identity: `f${k}`,
        representation_id: 'outline',
        form_rank: 1,
        is_default_form: false,
        token_count: Math.round(size / 10),
        relevance: chance / 5,
      }),
    ];
  }).flat();
}

/** A pool at a budget under a policy where every chance earns (no relevance floor). */
const everyChanceEarns = (candidates: readonly ContextCandidate[], budget: number): StrategyInput => ({
  request: req(budget),
  candidates,
  policy: policy({ min_discretionary_relevance: 0 }),
  budget,
});

const anytimeOf = (input: StrategyInput) => certified({ ...input, anytime: true }, planner(input));

describe('the answer now', () => {
  it('on generated pools at every budget: legal, no worse than the planner, and within what it says of the optimum', async () => {
    for (const size of [40, 200, 600])
      for (const level of ['tight', 'medium', 'roomy'] as const) {
        const g = generateCase(`anytime-${size}`, size);
        const input = inputAt(g, level);
        const where = `${size}/${level}`;
        const out = await anytimeOf(input);
        const best = optimum(input);
        if (best === null) {
          // A refusal stays proven: the full limits decide it, as a study's would.
          expect('refusal' in out, where).toBe(true);
          continue;
        }
        expect('admitted' in out, where).toBe(true);
        if (!('admitted' in out)) continue;
        expect(auditOf(input, out.admitted).legal, where).toBe(true);
        const got = objectiveOf(input, out.admitted);
        const alone = planner(input).bundle;
        if (alone !== null) {
          const p = objectiveOf(
            input,
            alone.items.map((i) => i.id),
          );
          expect(got.preferred + got.discretionary, where).toBeGreaterThanOrEqual(
            p.preferred + p.discretionary - 1e-9,
          );
        }
        const within = extras(out).within_percent as number;
        expect(within, where).toBeGreaterThanOrEqual(0);
        // The bundle earns at least (100 - N)% of what the optimum earns (rounded to 0.01).
        const total = (o: Objective) => o.preferred + o.discretionary;
        expect(total(got), where).toBeGreaterThanOrEqual((1 - (within + 0.01) / 100) * total(best) - 1e-9);
      }
  });

  it('the hull bound lies above the proven optimum at each level and both together, on generated pools', () => {
    for (const size of [40, 200])
      for (const level of ['tight', 'medium', 'roomy'] as const) {
        const input = inputAt(generateCase(`anytime-bound-${size}`, size), level);
        const best = optimum(input);
        const bound = hullBound(new Problem(input));
        if (best === null) continue;
        if (bound === null) throw new Error(`no bound where a bundle exists (${size}/${level})`);
        expect(bound.preferred).toBeGreaterThanOrEqual(best.preferred - 1e-9);
        expect(bound.discretionary).toBeGreaterThanOrEqual(best.discretionary - 1e-9);
        // Both levels together, the room spent once: above the optimum, and no looser than the sum.
        expect(bound.earned).toBeGreaterThanOrEqual(best.preferred + best.discretionary - 1e-9);
        expect(bound.earned).toBeLessThanOrEqual(bound.preferred + bound.discretionary + 1e-9);
      }
  });

  it('files with outlines: the distance told is small where the search’s own bound alone would say most of it', async () => {
    const pool = files(120);
    const input = everyChanceEarns(pool, 8_000);
    const out = await anytimeOf(input);
    const best = optimum(input) as Objective;
    const x = extras(out);
    expect('admitted' in out).toBe(true);
    const got = x.objective as Objective;
    // The bundle is close to the optimum, and says so.
    expect(got.discretionary).toBeGreaterThanOrEqual(best.discretionary * 0.95);
    expect(x.within_percent).toBeLessThan(10);
    // The search's root bound (every file's full chance at its outline's price) says far more.
    const alone = await certified(input, planner(input), {
      nodes: 50,
      work: Number.POSITIVE_INFINITY,
      ilp: DEFAULT_ILP_LIMITS,
      ilpCandidates: 0,
    });
    expect(extras(alone).proof).toBe('bounded');
    const root = (alone.extras as { bound: Objective }).bound;
    expect((root.discretionary - got.discretionary) / root.discretionary).toBeGreaterThan(0.3);
  });

  it('one large file worth more than what fills its room: the greedy started from it finds it', () => {
    // By value per token the blocker comes first, and then the large file no longer fits.
    const pool = [
      cand('large', { token_count: 950, relevance: 0.9 }),
      cand('blocker', { token_count: 60, relevance: 0.07 }),
      ...Array.from({ length: 20 }, (_, k) => cand(`dust-${k}`, { token_count: 1, relevance: 0.0005 })),
    ];
    const input = everyChanceEarns(pool, 1_000);
    const problem = new Problem(input);
    expect(hullGreedy(problem, [])?.ids).not.toContain('large');
    const offered = hullGreedies(problem, []);
    const best = offered.reduce((a, b) => (b.objective.discretionary > a.objective.discretionary ? b : a));
    expect(best.ids).toContain('large');
    expect(auditOf(input, best.ids).legal).toBe(true);
    expect(best.objective.discretionary).toBeCloseTo((optimum(input) as Objective).discretionary, 9);
  });

  it('a study certifying a pool too large for the integer program is offered the same greedy bundles', async () => {
    // The likeliest file first fills the room; ten less likely ones together earn far more.
    const pool = [
      cand('large', { token_count: 950, relevance: 0.5 }),
      ...Array.from({ length: 10 }, (_, k) => cand(`medium-${k}`, { token_count: 90, relevance: 0.45 })),
    ];
    const input = everyChanceEarns(pool, 1_000);
    const planned = planner(input).bundle?.items.map((i) => i.id) ?? [];
    expect(planned).toContain('large');
    // One node and no integer program: what is offered decides.
    const out = await certified(input, planner(input), {
      nodes: 1,
      work: Number.POSITIVE_INFINITY,
      ilp: DEFAULT_ILP_LIMITS,
      ilpCandidates: 0,
    });
    const admitted = 'admitted' in out ? out.admitted : [];
    expect(admitted).not.toContain('large');
    expect(admitted.filter((id) => id.startsWith('medium-')).length).toBeGreaterThanOrEqual(9);
    expect(extras(out)).toMatchObject({ proof: 'bounded', planner: 'improved' });
  });

  it('the greedy bundle is legal and holds the required content as the planner planned it', () => {
    const pool = [
      ...files(30),
      cand('task', { requirement: 'REQUIRED', token_count: 50, kind: 'task', order_role: 'task' }),
      cand('dep', { token_count: 30, relevance: 0 }),
      cand('needs-dep', { token_count: 100, relevance: 0.4, depends_on: ['dep'] }),
    ];
    const input: StrategyInput = { request: req(3_000), candidates: pool, policy: policy(), budget: 3_000 };
    const plan = planner(input).bundle?.items.map((i) => i.id) ?? [];
    const greedy = hullGreedy(new Problem(input), plan);
    expect(greedy).not.toBeNull();
    const ids = greedy?.ids ?? [];
    expect(auditOf(input, ids).legal).toBe(true);
    expect(ids).toContain('task');
    // The likeliest per token is in, with what it needs.
    expect(ids).toEqual(expect.arrayContaining(['needs-dep', 'dep']));
  });

  it('the same input gives the same bytes: the work is counted in nodes', async () => {
    const input = inputAt(generateCase('anytime-600', 600), 'roomy');
    expect(JSON.stringify(await anytimeOf(input))).toBe(JSON.stringify(await anytimeOf(input)));
  });
});
