import {
  baselineAnswer,
  costOf,
  defaultFormPool,
  renderedIncrement,
  type Strategy,
} from '../src/harness/kit/index.js';

/**
 * Everything, cut to fit: the whole default-form pool in id order, dropping the last item while
 * the rendering overruns. The cut follows the alphabet, not priority.
 */
const dump: Strategy = {
  name: 'dump',
  description: 'every default form in id order, truncated from the end until it fits',
  assemble(input) {
    const pool = defaultFormPool(input.candidates);
    const kept = [...pool];
    let cost = costOf(kept, input);
    while (kept.length > 0 && cost > input.budget)
      cost -= renderedIncrement(kept.pop() as (typeof kept)[number], kept.length, input.policy);
    return baselineAnswer(input, pool, kept, 'dump-truncate');
  },
};

export default dump;
