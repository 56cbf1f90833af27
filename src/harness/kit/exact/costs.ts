/**
 * The integer program's answer to "the least rendered cost of a legal bundle meeting these
 * requirements" (the branch and bound's is `SearchCosts`, in search-costs.ts, which loads no
 * HiGHS).
 */
import type { StrategyInput } from '../../types.js';
import { asked, type Constraint, type CostOracle } from './certificate.js';
import type { SolveLimits } from './highs.js';
import { minimumCost } from './optimise.js';
import type { Problem } from './problem.js';

export class IlpCosts implements CostOracle {
  complete = true;
  solves = 0;
  private readonly problem: Problem;
  private readonly input: StrategyInput;
  private readonly limits: SolveLimits;

  constructor(problem: Problem, limits: SolveLimits) {
    this.problem = problem;
    this.input = problem.input;
    this.limits = limits;
  }

  minCost(constraints: readonly Constraint[]): number {
    const { contents, named } = asked(this.problem, constraints);
    this.solves++;
    const { cost, proven } = minimumCost(
      this.input,
      { contents, named, budget: Number.POSITIVE_INFINITY },
      this.limits,
    );
    if (!proven) this.complete = false;
    return cost;
  }
}
