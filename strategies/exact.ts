import { loadExact, type Strategy } from '../src/harness/kit/index.js';

// HiGHS loads here, once per process, and only for the strategies that solve.
const { solveExact } = await loadExact();

/**
 * The optimal legal bundle for a documented, ledger-free objective, found by branch and bound; a
 * refusal only when no legal bundle exists, with a certificate a person can check.
 */
const exact: Strategy = {
  name: 'exact',
  description: 'branch and bound: the optimal legal bundle, or a refusal certified minimal',
  assemble: (input) => solveExact(input),
};

export default exact;
