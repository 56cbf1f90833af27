/** Score: the metrics against the ledger, the ledger-free legality, audit and objective, and statistics over rows. */
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
