/**
 * A planner's compilation checked by `exact`'s engines under a work limit (nodes and solver
 * iterations, never a clock). A refusal stands only when no legal bundle exists, and then carries
 * the proof (`certificate`, the least legal cost); when the limit stopped the proof it says
 * "unproven". A bundle stands unless the solver found a better one under `exact`'s objective,
 * and carries its distance from the best that could exist (`gap`, in earned PREFERRED relevance).
 *
 * The branch and bound answers small pools without HiGHS; only when it stops at its node limit is
 * the integer program loaded (asynchronously, so the caller gets a promise) and asked, and only
 * for pools it can finish; above that size the planner's bundle stands with the relaxation's bound.
 */
import { type CompileOutput, missingSources } from '../../../compiler/index.js';
import type { Objective, Selection, StrategyInput } from '../../types.js';
import { selectionOf } from '../compiler.js';
import { legalityProblems, requiredContents } from '../legality.js';
import { compareObjectives, objectiveOf } from '../objective.js';
import { hullBound, hullGreedies, withinPercent } from './anytime.js';
import { type Certificate, certify, constraintsOf, refusalOf } from './certificate.js';
import type { SolveLimits } from './highs.js';
import { type Found, nodesWithin, Problem } from './problem.js';
import { type Bound, Search } from './search.js';
import { SearchCosts } from './search-costs.js';
import type { Settled } from './settled.js';

export interface CertifyLimits {
  /** Branch-and-bound nodes, for the optimum and again for each step of a refusal's proof. */
  readonly nodes: number;
  /**
   * Nodes times contents, at most: a node costs about one pass over the pool's contents, so a
   * large pool gets fewer nodes (20,000 up to 250 contents, 500 at 10,000, 50 at 100,000).
   */
  readonly work: number;
  /** The integer program's limits when the branch and bound stopped. */
  readonly ilp: SolveLimits;
  /** Pools of more candidates never reach the integer program: the relaxation's bound stands. */
  readonly ilpCandidates: number;
}

export const DEFAULT_CERTIFY_LIMITS: CertifyLimits = {
  nodes: 20_000,
  work: 5_000_000,
  ilp: { nodes: 20_000, iterations: 5_000_000 },
  ilpCandidates: 5_000,
};

/**
 * An answer now (`pack`, MCP; StrategyInput.anytime): the planner's bundle and the hull's greedy
 * offered, a short search, no integer program, and the distance from the optimum told. Counted in
 * nodes, so the answer is the same on every machine.
 */
export const ANYTIME_LIMITS: CertifyLimits = { ...DEFAULT_CERTIFY_LIMITS, nodes: 2_000, ilpCandidates: 0 };

const round = (x: number): number => Math.round(x * 1e9) / 1e9;

/** The planner's answer for `input`, certified. A promise only when the integer program is needed. */
export function certified(
  input: StrategyInput,
  output: CompileOutput,
  limits: CertifyLimits = input.anytime === true ? ANYTIME_LIMITS : DEFAULT_CERTIFY_LIMITS,
): Selection | Promise<Selection> {
  const planned = selectionOf(output);
  const ids = new Set(input.candidates.map((c) => c.candidate_id));
  const missing = missingSources(input.request.required_ids, (id) => ids.has(id));
  // A named id that is no candidate: the refusal is its own proof.
  if (missing !== null && 'refusal' in planned)
    return { ...planned, extras: { proof: 'infeasible', proof_text: `proven: ${missing.diagnostic}` } };
  const problem = new Problem(input);
  const nodes = nodesWithin(limits.work, problem.byIdentity.size, limits.nodes);
  const search = new Search(
    problem,
    { required: new Set(requiredContents(input)), mode: 'optimise', budget: input.budget },
    nodes,
  );
  const admitted = 'admitted' in planned ? planned.admitted : null;
  const plannerFound =
    admitted !== null && legalityProblems(input, admitted).length === 0
      ? { ids: admitted, objective: objectiveOf(input, admitted) }
      : null;
  if (plannerFound !== null) search.offer(plannerFound);
  const anytime = input.anytime === true;
  // The hull's greedy bundles wherever the search's best may be the answer: an answer now, and a
  // pool too large for the integer program, where the planner's bundle stood unless the short
  // search beat it (sympy-22840 at 27k: 0.105 of chance against the optimum's 0.147).
  if (anytime || input.candidates.length > limits.ilpCandidates)
    for (const greedy of hullGreedies(problem, admitted ?? [])) search.offer(greedy);
  search.run();
  const byBranchAndBound = (proven: boolean): Settled => ({
    best: search.best,
    proven,
    bound: search.rootBound(),
    facts: { engine: 'search', nodes: search.nodes },
    problem,
    costs: () => new SearchCosts(problem, nodes),
  });
  if (anytime && search.best !== null) {
    const proven = !search.aborted;
    const hull = proven ? null : hullBound(problem);
    const bound = proven ? null : tighter(search.rootBound(), hull);
    const out = settle(input, planned, plannerFound, { ...byBranchAndBound(proven), bound });
    const { objective } = out.extras as { objective: Objective };
    const most = Math.min(
      hull?.earned ?? Infinity,
      bound === null ? Infinity : bound.preferred + bound.discretionary,
    );
    const within = Number.isFinite(most) ? withinPercent(objective, most) : 0;
    return { ...out, extras: { ...out.extras, within_percent: within } };
  }
  // No bundle found in an answer's work: a refusal stays proven, by the full limits.
  if (anytime && search.aborted)
    return certified({ ...input, anytime: false }, output, DEFAULT_CERTIFY_LIMITS);
  if (!search.aborted || input.candidates.length > limits.ilpCandidates)
    return settle(input, planned, plannerFound, byBranchAndBound(!search.aborted));
  return import('./exact-engine.js').then(({ settleByIlp }) =>
    settle(input, planned, plannerFound, settleByIlp(input, byBranchAndBound(false), limits.ilp)),
  );
}

/** Of two upper bounds, level by level the lower. */
function tighter(a: Bound | null, b: Bound | null): Bound | null {
  if (a === null || b === null) return a ?? b;
  return {
    preferred: Math.min(a.preferred, b.preferred),
    discretionary: Math.min(a.discretionary, b.discretionary),
  };
}

/** The answer, from the planner's and what the engines settled. */
function settle(input: StrategyInput, planned: Selection, plannerFound: Found | null, s: Settled): Selection {
  const { best, proven } = s;
  if (best === null) return refused(input, planned, s);
  const keep = plannerFound !== null && compareObjectives(plannerFound.objective, best.objective) >= 0;
  const chosen: Objective = keep ? plannerFound.objective : best.objective;
  const bound = proven ? best.objective : (s.bound ?? best.objective);
  const extras = {
    proof: proven ? 'optimal' : 'bounded',
    proven_optimal: proven,
    gap: proven ? 0 : round(Math.max(0, bound.preferred - chosen.preferred)),
    bound: { preferred: round(bound.preferred), discretionary: round(bound.discretionary) },
    objective: chosen,
    planner: keep ? 'kept' : 'refusal' in planned ? 'refused' : 'improved',
    ...s.facts,
  };
  if (keep) return { ...planned, extras: { ...('extras' in planned ? planned.extras : {}), ...extras } };
  const why = 'refusal' in planned ? { planner_refusal: planned.refusal.reason } : {};
  return { admitted: [...best.ids], extras: { ...extras, ...why } };
}

/**
 * No legal bundle known: proven impossible (with its certificate), or unproven. The planner's
 * refusal is kept as it wrote it (the validators re-derive it from the inputs), the proof in
 * extras; a planner's bundle that is not legal (refuse mode never returns one) gives way to the
 * certificate's refusal once proven, and stands, marked unproven, otherwise.
 */
function refused(input: StrategyInput, planned: Selection, s: Settled): Selection {
  if (!s.proven) {
    const why = 'no legal bundle found, and none proven impossible, within the work limit';
    return { ...planned, extras: { proof: 'unproven', proof_text: `unproven: ${why}`, ...s.facts } };
  }
  const costs = s.costs();
  const certificate: Certificate = certify(input, s.problem, costs);
  const least = costs.minCost(constraintsOf(input).filter((c) => c.kind !== 'budget'));
  // The refusal is proven; how little a bundle would cost is proven only when every count finished.
  const proof = !costs.complete
    ? 'no legal bundle fits the budget (the least legal cost not settled within the work limit)'
    : Number.isFinite(least)
      ? `the least legal cost is ${least} > budget ${input.budget}`
      : 'no legal bundle exists at any budget';
  const extras = {
    proof: 'infeasible',
    proof_text: `proven: ${proof}; ${certificate.text}`,
    least_legal_cost: costs.complete && Number.isFinite(least) ? least : null,
    certificate,
    ...s.facts,
  };
  return 'refusal' in planned ? { ...planned, extras } : { refusal: refusalOf(certificate), extras };
}
