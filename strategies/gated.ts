import {
  baselineAnswer,
  defaultFormPool,
  gate,
  greedyFill,
  rankBy,
  type Strategy,
  type Why,
} from '../src/harness/kit/index.js';

/**
 * Relevance ranking behind the four hard gates. It never admits an ineligible form, but it sees
 * only default forms, knows no dependencies or groups, and never refuses.
 */
const gated: Strategy = {
  name: 'gated',
  description: 'default forms that pass the hard gates, by relevance, greedy fill',
  assemble(input) {
    const pool = defaultFormPool(input.candidates);
    const why = new Map<string, Why>();
    const open = pool.filter((c) => {
      const verdict = gate(c);
      if (verdict.code !== 'eligible') why.set(c.candidate_id, verdict);
      return verdict.code === 'eligible';
    });
    const kept = greedyFill(
      rankBy(open, (c) => c.relevance),
      input,
    );
    return baselineAnswer(input, pool, kept, 'gated-greedy', why);
  },
};

export default gated;
