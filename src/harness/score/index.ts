/** Score: metrics against the ledger, ledger-free legality, audit and objective, row statistics. */
export { auditOf, legalityProblems, missingRequired, type Needed, requiredContents } from './legality.js';
export { NO_METRICS, type Scored, score } from './metrics.js';
export { compareIdLists, compareObjectives, EPSILON, objectiveOf } from './objective.js';
export {
  type BudgetStats,
  budgetStats,
  type Gap,
  mean,
  oracleGap,
  rowsOf,
  strategiesOf,
  strategyStats,
  summary,
} from './stats.js';
