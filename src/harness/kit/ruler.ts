/** The one ruler every strategy is measured with, and the hard gate as a yes or no. */
import { type ContextCandidate, gate, renderedCost } from '../../compiler/index.js';
import type { StrategyInput } from '../types.js';

/** True when the candidate passes scope, freshness, authority and its form floor. */
export const eligible = (c: ContextCandidate): boolean => gate(c).code === 'eligible';

/** The rendered cost of a set of candidates (docs/compiler.md §11.2), as the harness prices bundles. */
export const costOf = (selected: readonly ContextCandidate[], input: StrategyInput): number =>
  renderedCost(selected, input.request, input.policy);
