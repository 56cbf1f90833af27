import { baselineAnswer, relevanceFill, type Strategy } from '../src/harness/kit/index.js';

/** Relevance ranking, the common default: most relevant first, every item that still fits. */
const topk: Strategy = {
  name: 'topk',
  description: 'default forms by relevance, greedy fill without early stop (no fixed k)',
  assemble(input) {
    const { pool, kept } = relevanceFill(input);
    return baselineAnswer(input, pool, kept, 'topk-greedy');
  },
};

export default topk;
