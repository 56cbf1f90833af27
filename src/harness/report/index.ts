/** Report: the book's tables as Markdown, report.html with its charts, findings from a template, the table layouts and the number formats. */
export { type Chart, renderCharts } from './charts.js';
export { type CellTable, exactSection, exactTables } from './exact.js';
export { FindingsError, type FindingsRun, renderFindings } from './findings.js';
export { fixed, int, signed } from './format.js';
export { type GridCell, gridCells, OUTCOME_LEGEND, type Outcome, outcomeOf } from './grid.js';
export { escapeHtml, reportHtml } from './html.js';
export { reportMarkdown } from './markdown.js';
export { type Align, markdownTable, textTable } from './table.js';
