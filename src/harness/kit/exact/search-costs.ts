/**
 * The branch and bound's answer to "the least rendered cost of a legal bundle meeting these
 * requirements": quick on small pools, and free of HiGHS, so that a caller that may never need
 * the integer program does not load it.
 */
import { asked, type Constraint, type CostOracle } from './certificate.js';
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
