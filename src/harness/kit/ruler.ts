/** The one ruler every strategy is measured with, and the hard gate as a yes or no. */
import { type ContextCandidate, gate, renderedCost } from '../../compiler/index.js';
import type { StrategyInput, WaitingStrategy } from '../types.js';

/** True when the candidate passes scope, freshness, authority and its form floor. */
export const eligible = (c: ContextCandidate): boolean => gate(c).code === 'eligible';

/** The rendered cost of a set of candidates (docs/compiler.md §11.2), as the harness prices bundles. */
export const costOf = (selected: readonly ContextCandidate[], input: StrategyInput): number =>
  renderedCost(selected, input.request, input.policy);

/** The suffix of a strategy run behind the hard gates (`behindGates`). */
export const GATED_SUFFIX = '+gates';

/**
 * `<name>+gates`: the strategy on the candidates that pass every hard gate, what a careful user
 * of a peer does with the verdicts each candidate carries (issue 36). Its file is
 * `strategies/<name>+gates.ts`, `export default behindGates(peer)`. The request goes as it is: an
 * id it names that failed a gate is simply absent from the pool the strategy sees.
 */
export function behindGates<S extends WaitingStrategy>(strategy: S): S {
  return {
    ...strategy,
    name: `${strategy.name}${GATED_SUFFIX}`,
    description: `${strategy.description}; on the candidates that pass every hard gate`,
    assemble: (input: StrategyInput) =>
      strategy.assemble({ ...input, candidates: input.candidates.filter(eligible) }),
  };
}
