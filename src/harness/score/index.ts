/** Score: metrics against the ledger, ledger-free legality, audit and objective, row statistics. */
export { NO_METRICS, score } from './metrics.js';
export {
  budgetStats,
  mean,
  oracleGap,
  type Rate,
  statsByStrategy,
  strategiesOf,
  strategyStats,
  summary,
  violationTotal,
  wilson,
} from './stats.js';
