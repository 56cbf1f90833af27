import {
  type ContextCandidate,
  eligible,
  greedyFill,
  rankBy,
  type Strategy,
} from '../src/harness/kit/index.js';

/**
 * The worked example of docs/adding-a-strategy.md: the gated greedy, but it considers every
 * legal form of a content instead of only the default one, and takes the cheapest.
 */
const cheapestForm: Strategy = {
  name: 'cheapest-form',
  description: 'gated greedy over the cheapest legal form of each content, not only the default form',
  assemble(input) {
    const cheapest = new Map<string, ContextCandidate>();
    for (const c of input.candidates) {
      if (!eligible(c)) continue;
      const best = cheapest.get(c.content_identity);
      if (
        best === undefined ||
        c.token_count < best.token_count ||
        (c.token_count === best.token_count && c.candidate_id < best.candidate_id)
      ) {
        cheapest.set(c.content_identity, c);
      }
    }
    const kept = greedyFill(
      rankBy([...cheapest.values()], (c) => c.relevance),
      input,
    );
    return { admitted: kept.map((c) => c.candidate_id) };
  },
};

export default cheapestForm;
