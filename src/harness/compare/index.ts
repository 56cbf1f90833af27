/** Compare: two run folders side by side, their changes, paired tests and the pages that show them. */

export { comparisonParts } from './comparison-text.js';
export { anythingChanged, compareRuns, DEFAULT_SEED } from './runs.js';
export { sideFiles, twoSides } from './two-sides.js';
