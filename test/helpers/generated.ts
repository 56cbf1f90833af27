import { defaultPolicy } from '../../src/compiler/index.js';
import type { GeneratedCase } from '../../src/harness/generate/finish.js';
import type { BudgetName, StrategyInput } from '../../src/harness/types.js';

/** A generated case at one of its budgets, as a strategy sees it under the reference policy. */
export const inputAt = (g: GeneratedCase, level: BudgetName): StrategyInput => ({
  request: { ...g.request, usable_token_budget: g.budgets[level] },
  candidates: g.candidates,
  policy: defaultPolicy(),
  budget: g.budgets[level],
});
