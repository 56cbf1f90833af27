/**
 * Peer `langchain-reorder`: `topk`'s selection laid out by LangChain's `LongContextReorder`.
 *
 * LongContextReorder is not in any package installed here, and not in JavaScript at all: the
 * issue places it in @langchain/community, but langchainjs has never shipped it (its
 * libs/langchain-community/src/document_transformers/ holds only html_to_text and
 * mozilla_readability in every revision of the mirror, up to 62fc484b2a0d). It is Python's
 * langchain_community transformer, so `litmReordering` below is its documented algorithm,
 * written here: langchain-ai/langchain@37405d8883ba783e3d8b929fa14157d6e1fc272a,
 * libs/community/langchain_community/document_transformers/long_context_reorder.py,
 * `_litm_reordering` (reverse the list, then put each even-indexed item in front and each
 * odd-indexed one at the back). Its how-to notebook's example (docs/docs/how_to/
 * long_context_reorder.ipynb @ 6e4e54279d48) is reproduced in the test.
 *
 * The pool: topk's, from the kit's `relevanceFill`, which strategies/topk.ts answers with too:
 * each content's default form, ranked by relevance (ties by id), greedily filled. That
 * ranked list is what a retriever returns ("descending order of relevance") and what the
 * transformer takes. Reordering changes no admission, only positions: the bundle is laid out in
 * the transformer's order (`layout: 'own'`), the most relevant items at the two ends. Like topk,
 * it ignores gates, form floors, dependencies, required groups and required ids.
 */
import { baselineAnswer, relevanceFill, type Strategy } from '../src/harness/kit/index.js';

/** `_litm_reordering`: the input most relevant first; the result has it at one end. */
export function litmReordering<T>(documents: readonly T[]): T[] {
  const reordered: T[] = [];
  [...documents].reverse().forEach((value, i) => {
    if (i % 2 === 1) reordered.push(value);
    else reordered.unshift(value);
  });
  return reordered;
}

const langchainReorder: Strategy = {
  name: 'langchain-reorder',
  description: "topk's selection laid out by LangChain's LongContextReorder (most relevant at both ends)",
  assemble(input) {
    const { pool, kept } = relevanceFill(input);
    // The same admission as topk, laid out (and traced) in the transformer's order.
    return baselineAnswer(input, pool, litmReordering(kept), 'langchain-reorder', undefined, 'own');
  },
};

export default langchainReorder;
