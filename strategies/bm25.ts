/**
 * `bm25`: the retrieval of the SWE-bench paper (Jimenez et al., ICLR 2024, Table 3) as the paper
 * describes it, BM25 over the repository's files with the issue as the query, run on a ctxbench
 * pool: it indexes every whole file the pool holds (source, tests, docs, configuration), as the
 * corpus gives every strategy the same pool. Whole files by score, best first, each that fits;
 * every choice of the retrieval is the kit's (src/harness/kit/bm25.ts says which and why).
 * `bm25-swe` indexes what SWE-bench's own code indexes instead: its Python files that are not tests.
 */
import { bm25Selector, type Strategy } from '../src/harness/kit/index.js';

const bm25: Strategy = {
  name: 'bm25',
  description:
    "the SWE-bench paper's retrieval: whole files by BM25 against the task, best first, each that fits",
  assemble: bm25Selector({ name: 'bm25', fill: 'skip' }),
};

export default bm25;
