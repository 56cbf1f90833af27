import { baselineAnswer, relevanceFill, type Strategy, withRanking } from '../src/harness/kit/index.js';

/**
 * Relevance ranking, the common default: most relevant first, every item that still fits. It
 * publishes that ranking (`extras.ranked`), so its file accuracy at 1, 3 and 5 is measured.
 */
const topk: Strategy = {
  name: 'topk',
  description: 'default forms by relevance, greedy fill without early stop (no fixed k)',
  assemble(input) {
    const { pool, kept } = relevanceFill(input);
    return withRanking(input, baselineAnswer(input, pool, kept, 'topk-greedy'));
  },
};

export default topk;
