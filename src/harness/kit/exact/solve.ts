/**
 * `exact`: the optimal legal bundle for the documented objective, or a refusal certified by a
 * minimal set of requirements that cannot hold together (`certificate.ts`). Two engines answer:
 * the branch and bound (`search.ts`), quick on small pools, and the integer program solved with
 * HiGHS (`ilp.ts`, `optimise.ts`), which proves its answer at a thousand candidates. `auto` runs
 * the branch and bound within a small node count and hands over to the integer program when that
 * is not enough; both are bounded by counts, never by a clock.
 */
import {
  compileContext,
  missingSources,
  REQUIRED_MISSING_MODES,
  type RequiredMissing,
} from '../../../compiler/index.js';
import type { Selection, StrategyInput } from '../../types.js';
import { legalityProblems, requiredContents } from '../legality.js';
import { objectiveOf } from '../objective.js';
import { type Certificate, type CostOracle, certify, refusalOf } from './certificate.js';
import { IlpCosts } from './costs.js';
import type { SolveLimits } from './highs.js';
import { optimise } from './optimise.js';
import { nodesWithin, Problem } from './problem.js';
import { Search } from './search.js';
import { SearchCosts } from './search-costs.js';

export const EXACT_ENGINES = ['auto', 'search', 'ilp'] as const;
export type ExactEngine = (typeof EXACT_ENGINES)[number];

export interface ExactOptions {
  /** `auto` (the default): the search within `autoNodes`, then the integer program. */
  readonly engine?: ExactEngine | undefined;
  /** The branch and bound's node limit when it runs alone. */
  readonly nodeLimit?: number | undefined;
  /** In `auto`, the nodes the branch and bound gets before the integer program takes over. */
  readonly autoNodes?: number | undefined;
  readonly ilpLimits?: SolveLimits | undefined;
}

export const DEFAULT_NODE_LIMIT = 400_000;
export const DEFAULT_AUTO_NODES = 20_000;
/**
 * In `auto`, the branch and bound's work before the hand-over, in nodes times candidates: each
 * node costs time in proportion to the pool, so 20,000 nodes up to 1,000 candidates and fewer
 * beyond (2,000 at 10,000), where the integer program, not the search, proves the answer.
 */
export const AUTO_WORK = DEFAULT_AUTO_NODES * 1_000;
export const DEFAULT_ILP_LIMITS: SolveLimits = { nodes: 200_000, iterations: 50_000_000 };

/**
 * Optimal for the documented objective (earned PREFERRED relevance, then DISCRETIONARY, then the
 * smaller rendered cost, then the smaller sorted id list), or refuses only when no legal bundle
 * exists.
 */
export function solveExact(input: StrategyInput, options: ExactOptions = {}): Selection {
  const ids = new Set(input.candidates.map((c) => c.candidate_id));
  const missing = missingSources(input.request.required_ids, (id) => ids.has(id));
  if (missing !== null) {
    const certificate: Certificate = {
      reason: missing.reason,
      budget: input.budget,
      requirements: missing.blocking.map((id) => ({ kind: 'named', id, why: 'not a candidate' })),
      minimal: true,
      text: missing.diagnostic,
    };
    return refusal(certificate, {});
  }
  const engine = options.engine ?? 'auto';
  const problem = new Problem(input);
  if (engine !== 'ilp') {
    const nodes =
      engine === 'search'
        ? (options.nodeLimit ?? DEFAULT_NODE_LIMIT)
        : (options.autoNodes ?? nodesWithin(AUTO_WORK, input.candidates.length, DEFAULT_AUTO_NODES));
    const answer = bySearch(input, problem, nodes, engine === 'search');
    if (answer !== null) return answer;
  }
  return byIlp(input, problem, options.ilpLimits ?? DEFAULT_ILP_LIMITS);
}

/**
 * The branch and bound's answer. Past its node limit it proved nothing: alone, it answers with
 * the best bundle found (`proven_optimal: false`) or SEARCH_LIMIT; in `auto`, null.
 */
function bySearch(
  input: StrategyInput,
  problem: Problem,
  nodeLimit: number,
  alone: boolean,
): Selection | null {
  const search = new Search(
    problem,
    { required: new Set(requiredContents(input)), mode: 'optimise', budget: input.budget },
    nodeLimit,
  );
  // The compiler's own bundles (both policies) seed the search when they are legal.
  for (const mode of REQUIRED_MISSING_MODES) {
    const seed = compilerBundle(input, mode);
    if (seed !== null && legalityProblems(input, seed).length === 0)
      search.offer({ ids: seed, objective: objectiveOf(input, seed) });
  }
  search.run();
  const best = search.best;
  const facts = { engine: 'search', nodes: search.nodes };
  if (search.aborted && !alone) return null;
  if (best !== null)
    return {
      admitted: [...best.ids],
      extras: { proven_optimal: !search.aborted, ...facts, objective: best.objective },
    };
  if (search.aborted) return searchLimit(nodeLimit, search.nodes);
  const costs = new SearchCosts(problem, nodeLimit);
  const certificate = certify(input, problem, costs);
  return refusal(certificate, { engine: 'search', nodes: search.nodes + costs.nodes });
}

function searchLimit(nodeLimit: number, nodes: number): Selection {
  const diagnostic = `no legal bundle found within ${nodeLimit} nodes; none proven impossible either`;
  const extras = { proven_optimal: false, engine: 'search', nodes };
  return { refusal: { reason: 'SEARCH_LIMIT', diagnostic }, extras };
}

function byIlp(input: StrategyInput, problem: Problem, limits: SolveLimits): Selection {
  const answer = optimise(input, limits);
  if (answer.status === 'optimal' || (answer.status === 'limit' && answer.ids !== null)) {
    const ids = answer.ids as readonly string[];
    const proven = answer.status === 'optimal';
    return {
      admitted: [...ids],
      extras: {
        proven_optimal: proven,
        engine: 'ilp',
        solves: answer.solves,
        objective: objectiveOf(input, ids),
      },
    };
  }
  if (answer.status === 'limit') {
    const diagnostic = 'no legal bundle found within the solver limits; none proven impossible either';
    return {
      refusal: { reason: 'SEARCH_LIMIT', diagnostic },
      extras: { proven_optimal: false, engine: 'ilp', solves: answer.solves },
    };
  }
  const costs: CostOracle & { solves: number } = new IlpCosts(problem, limits);
  const certificate = certify(input, problem, costs);
  return refusal(certificate, { engine: 'ilp', solves: answer.solves + costs.solves });
}

function refusal(certificate: Certificate, facts: Readonly<Record<string, unknown>>): Selection {
  return { refusal: refusalOf(certificate), extras: { certificate, ...facts } };
}

function compilerBundle(input: StrategyInput, mode: RequiredMissing): string[] | null {
  try {
    const { bundle } = compileContext(input.request, input.candidates, {
      ...input.policy,
      required_missing: mode,
    });
    return bundle === null ? null : bundle.items.map((i) => i.id);
  } catch {
    return null;
  }
}
