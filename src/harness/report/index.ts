/** Report: the book's tables as Markdown, the table layouts and the number formats. */
export { exactSection } from './exact.js';
export { fixed, int, signed } from './format.js';
export { reportMarkdown } from './markdown.js';
export { type Align, markdownTable, textTable } from './table.js';
