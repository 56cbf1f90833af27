/** What certifying a planner's answer settles, shared by the branch and bound's part and the solver's. */
import type { CostOracle } from './certificate.js';
import type { Found, Problem } from './problem.js';
import type { Bound } from './search.js';

/** What the engines settled: the best legal bundle they know, and whether it is proven best. */
export interface Settled {
  readonly best: Found | null;
  readonly proven: boolean;
  /** Upper bounds on earned relevance when not proven; null when no bundle can fit. */
  readonly bound: Bound | null;
  readonly facts: Readonly<Record<string, unknown>>;
  readonly problem: Problem;
  /** Proves a refusal: the least cost of what it requires. */
  readonly costs: () => CostOracle;
}
