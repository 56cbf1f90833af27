/**
 * The two ways `exact` answers "the least rendered cost of a legal bundle meeting these
 * requirements": the branch and bound, quick on small pools, and the integer program.
 */
import type { StrategyInput } from '../../types.js';
import { asked, type Constraint, type CostOracle } from './certificate.js';
import type { SolveLimits } from './highs.js';
import { minimumCost } from './optimise.js';
import type { Problem } from './problem.js';
import { Search } from './search.js';

export class SearchCosts implements CostOracle {
  complete = true;
  nodes = 0;
  private readonly problem: Problem;
  private readonly nodeLimit: number;

  constructor(problem: Problem, nodeLimit: number) {
    this.problem = problem;
    this.nodeLimit = nodeLimit;
  }

  minCost(constraints: readonly Constraint[]): number {
    const { contents, named } = asked(this.problem, constraints);
    const view = this.problem.withNamed(named);
    const search = new Search(
      view,
      { required: contents, mode: 'min-cost', budget: Number.POSITIVE_INFINITY },
      this.nodeLimit,
    );
    search.run();
    this.nodes += search.nodes;
    if (search.aborted) this.complete = false;
    return search.best?.objective.rendered_cost ?? Number.POSITIVE_INFINITY;
  }
}

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
