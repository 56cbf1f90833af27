/** Metrics: every measure, figure, paired test and interval, against the ledger, and the only source of their labels and ranges. */
export {
  againstExact,
  cellKey,
  exactRows,
  type SurveyLine,
  type SurveyRun,
  surveyLines,
} from './against-exact.js';
export {
  COLUMN_TABLES,
  columnOf,
  FIGURES,
  type Figure,
  fieldsOf,
  figuresOf,
  headersOf,
  type Kind,
  kindsOf,
  PAIRED_FIGURES,
  type PairedFigure,
  ROW_MEASURES,
  ROW_METRICS,
  rowMetric,
  type TableName,
  violationTotal,
} from './catalogue.js';
export { estimateOf, rateOf } from './figure-intervals.js';
export { localizationOf, wholeByCell } from './found-files.js';
export { measureBundle } from './measures.js';
export { ALPHA, type PairedTest, pairedTest, RESAMPLES } from './paired.js';
export {
  CACHED_PRICE,
  type PrefixFigures,
  type PrefixStability,
  PrefixTally,
  prefixStability,
  renderedText,
} from './prefix.js';
export { NO_METRICS, score } from './scores.js';
export {
  type BudgetVerdict,
  MIN_DISCORDANT,
  type Separation,
  type Standing,
  verdictOf,
} from './standings.js';
export {
  budgetStats,
  lowerMedian,
  oracleGap,
  type Rate,
  rowsOf,
  rowViolations,
  statsByStrategy,
  strategiesOf,
  strategyStats,
  summary,
  wilson,
} from './stats.js';
