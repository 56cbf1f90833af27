/** Report: the book's tables as Markdown, report.html with its charts, findings from a template, the table layouts. */

export { FindingsError, type FindingsRun, renderFindings } from './findings-page.js';
export { GridReader } from './grid.js';
export { headlineTable } from './headline.js';
export { reportHtml } from './html.js';
export { reportMarkdown } from './markdown.js';
export { sectionNote, surveyMarkdown, surveySections } from './survey-page.js';
export {
  type Cell,
  isDataFormat,
  renderTable,
  stackTables,
  TABLE_FORMATS,
  type Table,
  type TableFormat,
} from './table.js';
export { traceJSON, traceTable, traceView } from './trace-text.js';
export { ingestedHeadline, verdictText } from './verdict.js';
