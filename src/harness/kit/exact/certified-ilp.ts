/**
 * The integer program's part in certifying a planner's answer (certified.ts): asked only when the
 * branch and bound stopped at its node limit, and loaded with HiGHS only then.
 */
import type { StrategyInput } from '../../types.js';
import { objectiveOf } from '../objective.js';
import { IlpCosts } from './costs.js';
import type { SolveLimits } from './highs.js';
import { optimise } from './optimise.js';
import { beats } from './problem.js';
import type { Settled } from './settled.js';

/** `exact`'s optimum by the integer program, or, past its limits, the better bundle known and no proof. */
export function settleByIlp(input: StrategyInput, searched: Settled, limits: SolveLimits): Settled {
  const answer = optimise(input, limits);
  const facts = { ...searched.facts, engine: 'search+ilp', solves: answer.solves };
  const costs = () => new IlpCosts(searched.problem, limits);
  if (answer.status === 'optimal')
    return {
      ...searched,
      best: { ids: answer.ids, objective: objectiveOf(input, answer.ids) },
      proven: true,
      facts,
      costs,
    };
  if (answer.status === 'infeasible') return { ...searched, best: null, proven: true, facts, costs };
  const found = answer.ids === null ? null : { ids: answer.ids, objective: objectiveOf(input, answer.ids) };
  const best = found !== null && beats('optimise', found, searched.best) ? found : searched.best;
  return { ...searched, best, proven: false, facts };
}
