/** Score: metrics against the ledger, the metric catalogue, row statistics. */
export {
  FIGURES,
  type Figure,
  figuresOf,
  type Kind,
  ROW_MEASURES,
  ROW_METRICS,
  type RowMeasure,
  rowMetric,
  type TableName,
} from './catalogue.js';
export { GAIN, measureBundle, NEAR_DUPLICATE, SHINGLE_WORDS, shingles } from './measures.js';
export { NO_METRICS, score } from './metrics.js';
export {
  budgetStats,
  mean,
  oracleGap,
  type Rate,
  rowsOf,
  statsByStrategy,
  strategiesOf,
  strategyStats,
  summary,
  wilson,
} from './stats.js';
