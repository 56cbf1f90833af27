/** Compare: two run folders side by side, their changes, paired tests and the pages that show them. */

export {
  anythingChanged,
  type Change,
  type Comparison,
  compareRuns,
  DEFAULT_SEED,
  type Side,
  type StrategyDelta,
  strategyPair,
  type Value,
} from './runs.js';
export { testsNote, testsTable } from './tests-table.js';
export { comparisonPage, strategiesPage } from './two-runs-page.js';
