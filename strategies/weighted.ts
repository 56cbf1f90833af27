import {
  baselineAnswer,
  defaultFormPool,
  greedyFill,
  type RequirementClass,
  rankBy,
  type Strategy,
} from '../src/harness/kit/index.js';
import weights from './weighted.weights.json' with { type: 'json' };

/** The priority term of the declared class; `required_ids` promotion is not applied. */
const PRIORITY: Readonly<Record<RequirementClass, number>> = {
  MANDATORY: 4,
  REQUIRED: 3,
  PREFERRED: 2,
  DISCRETIONARY: 1,
};

/**
 * A weighted packer with weights fixed before any run (weighted.weights.json): relevance, plus
 * class priority, minus cost as a share of this budget, so the order can change with the budget.
 */
const weighted: Strategy = {
  name: 'weighted',
  description: 'default forms by relevance + class priority - budget-normalised cost, greedy fill',
  assemble(input) {
    const pool = defaultFormPool(input.candidates);
    const score = (c: (typeof pool)[number]) =>
      weights.relevance * c.relevance +
      weights.priority * PRIORITY[c.requirement] -
      weights.cost * (c.token_count / Math.max(1, input.budget));
    const kept = greedyFill(rankBy(pool, score), input);
    return baselineAnswer(input, pool, kept, 'weighted-greedy');
  },
};

export default weighted;
