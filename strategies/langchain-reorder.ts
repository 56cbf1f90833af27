/**
 * Peer `langchain-reorder`: LangChain's `LongContextReorder` on what a retriever returned.
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
 * The prompt as a LangChain user builds it (issue 36, as langchain-trim): the instructions are the
 * system message, the question (the `task`-role contents) comes last, and between them go the
 * documents the retriever returned, reordered. The retriever: every other content's default form,
 * by relevance ("descending order of relevance", ties by id), greedily filled into what the
 * system message and the question leave of the budget (the kit's `greedyFill` after them), as a
 * user sizes `k` to the context. Reordering changes no admission, only positions: the bundle is
 * laid out system message, reordered documents, question (`layout: 'own'`). It ignores gates, form
 * floors, dependencies, required groups and required ids.
 */
import {
  baselineAnswer,
  defaultFormPool,
  greedyFill,
  rankBy,
  type Strategy,
} from '../src/harness/kit/index.js';

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
  description:
    "LangChain's LongContextReorder on the documents retrieved by relevance, between the system message and the question",
  assemble(input) {
    const pool = defaultFormPool(input.candidates);
    const of = (role: string) => pool.filter((c) => c.order_role === role);
    const [system, question] = [of('instruction'), of('task')];
    const documents = rankBy(
      pool.filter((c) => !system.includes(c) && !question.includes(c)),
      (c) => c.relevance,
    );
    const kept = new Set(greedyFill([...system, ...question, ...documents], input));
    const within = (list: readonly (typeof pool)[number][]) => list.filter((c) => kept.has(c));
    const laid = [...within(system), ...litmReordering(within(documents)), ...within(question)];
    return baselineAnswer(input, pool, laid, 'langchain-reorder', undefined, 'own');
  },
};

export default langchainReorder;
