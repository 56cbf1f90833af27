/**
 * `exact`: the optimal legal bundle for the documented objective, or a refusal certified by a
 * minimal set of requirements that cannot hold together (`certificate.ts`).
 */
import {
  compileContext,
  missingSources,
  REQUIRED_MISSING_MODES,
  type RequiredMissing,
} from '../../kit/index.js';
import { legalityProblems, requiredContents } from '../../score/legality.js';
import { objectiveOf } from '../../score/objective.js';
import type { Selection, StrategyInput } from '../../types.js';
import { type Certificate, certify } from './certificate.js';
import { Problem } from './problem.js';
import { Search } from './search.js';

export const DEFAULT_NODE_LIMIT = 400_000;

/**
 * Optimal for the documented objective (earned PREFERRED relevance, then DISCRETIONARY, then the
 * smaller rendered cost, then the smaller sorted id list), or refuses only when no legal bundle
 * exists. The compiler's own bundles (both policies) seed the search when they are legal.
 */
export function solveExact(input: StrategyInput, nodeLimit = DEFAULT_NODE_LIMIT): Selection {
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
    return refusal(certificate, 0);
  }
  const problem = new Problem(input);
  const search = new Search(
    problem,
    { required: new Set(requiredContents(input)), mode: 'optimise', budget: input.budget },
    nodeLimit,
  );
  for (const mode of REQUIRED_MISSING_MODES) {
    const seed = compilerBundle(input, mode);
    if (seed !== null && legalityProblems(input, seed).length === 0)
      search.offer({ ids: seed, objective: objectiveOf(input, seed) });
  }
  search.run();
  const best = search.best;
  if (best !== null) {
    return {
      admitted: [...best.ids],
      extras: { proven_optimal: !search.aborted, nodes: search.nodes, objective: best.objective },
    };
  }
  if (search.aborted) {
    const diagnostic = `no legal bundle found within ${nodeLimit} nodes; none proven impossible either`;
    return {
      refusal: { reason: 'SEARCH_LIMIT', diagnostic },
      extras: { proven_optimal: false, nodes: search.nodes },
    };
  }
  const certificate = certify(input, problem, nodeLimit);
  const { nodes, ...plain } = certificate;
  return refusal(plain, search.nodes + nodes);
}

function refusal(certificate: Certificate, nodes: number): Selection {
  const blocking = certificate.requirements.filter((r) => r.kind !== 'budget').map((r) => r.id);
  return {
    refusal: {
      reason: certificate.reason,
      blocking_ids: blocking,
      diagnostic: certificate.text,
      budget_used: 0,
    },
    extras: { certificate, nodes },
  };
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
