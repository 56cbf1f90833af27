import { DIGITS, fixed, percent, signed } from '../format.js';
import type { Kind } from '../metrics/index.js';

export type Align = 'left' | 'right';

/** A plain-text table with aligned columns, for terminals. */
export function textTable(
  headers: readonly string[],
  rows: readonly (readonly string[])[],
  align: readonly Align[] = [],
): string {
  const widths = headers.map((h, k) => Math.max(h.length, ...rows.map((r) => (r[k] ?? '').length)));
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, k) => (align[k] === 'right' ? cell.padStart(widths[k] ?? 0) : cell.padEnd(widths[k] ?? 0)))
      .join('  ')
      .trimEnd();
  return `${[line(headers), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n')}\n`;
}

/** A Markdown table; every row starts with `| <first cell> |`, which report readers rely on. */
export function markdownTable(
  headers: readonly string[],
  rows: readonly (readonly string[])[],
  align: readonly Align[] = [],
): string {
  const rule = headers.map((_, k) => (align[k] === 'right' ? '---:' : '---'));
  // A bar inside a cell would end it: a trace's detail or a strategy's description may hold one.
  const line = (cells: readonly string[]) => `| ${cells.map((c) => c.replace(/\|/g, '\\|')).join(' | ')} |`;
  return `${[line(headers), line(rule), ...rows.map(line)].join('\n')}\n`;
}

/**
 * How a command prints a table: aligned text for terminals, Markdown, CSV, or JSON (an array of
 * objects, one per row, keyed by the headers).
 */
export const TABLE_FORMATS = ['text', 'md', 'csv', 'json'] as const;
export type TableFormat = (typeof TABLE_FORMATS)[number];

/** Whether a format is for programs: then stdout holds the table alone. */
export const isDataFormat = (format: TableFormat): boolean => format === 'csv' || format === 'json';

/** A cell as data: text, a number (shown by its column's kind), or nothing. */
export type Cell = string | number | null;

/** A table as data, so that each format can print it its own way. */
export interface Table {
  readonly headers: readonly string[];
  readonly rows: readonly (readonly Cell[])[];
  /** The kind of each column's numbers in text and Markdown (format.ts); `count` when absent. */
  readonly kinds?: readonly (Kind | undefined)[];
  /** Columns of differences, whose numbers carry their sign. */
  readonly signed?: readonly boolean[];
  readonly align?: readonly Align[];
}

/** A number in text or Markdown, by the rule of format.ts: a percent column holds shares. */
const shownNumber = (t: Table, k: number, n: number): string => {
  if (t.kinds?.[k] === 'percent') return percent(n);
  const digits = DIGITS[t.kinds?.[k] ?? 'count'];
  return t.signed?.[k] === true ? signed(n, digits) : fixed(n, digits);
};

/** Every cell as people read it: numbers by their column's kind, nothing as `-`. */
export const shownCells = (t: Table): string[][] =>
  t.rows.map((r) => r.map((c, k) => (typeof c === 'number' ? shownNumber(t, k, c) : (c ?? '-'))));

/**
 * The table in `format`. Text and Markdown show numbers as people read them (`5,318,541`,
 * `0.8300`, `-` for nothing); CSV and JSON keep the numbers as numbers, for programs.
 */
export function renderTable(t: Table, format: TableFormat): string {
  if (format === 'json') {
    // JSON has no infinity: a figure without a finite value is null there, as it is `-` in text.
    const value = (c: Cell | undefined) =>
      typeof c === 'number' && !Number.isFinite(c) ? null : (c ?? null);
    const objects = t.rows.map((r) => Object.fromEntries(t.headers.map((h, k) => [h, value(r[k])])));
    return `${JSON.stringify(objects, null, 2)}\n`;
  }
  if (format === 'csv') {
    const quote = (c: Cell) => {
      const s = c === null ? '' : String(c);
      return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
    };
    return `${[t.headers, ...t.rows].map((r) => r.map(quote).join(',')).join('\n')}\n`;
  }
  const shown = shownCells(t);
  const align = t.align ?? t.headers.map((_, k) => (k === 0 ? 'left' : 'right'));
  return format === 'md' ? markdownTable(t.headers, shown, align) : textTable(t.headers, shown, align);
}

/**
 * Tables of the same columns as one, a first column naming where each row came from: what a
 * program reads where people read one table per section (the survey's runs).
 */
export function stackTables(header: string, parts: readonly (readonly [label: string, t: Table])[]): Table {
  const first = parts[0]?.[1];
  return {
    headers: [header, ...(first?.headers ?? [])],
    rows: parts.flatMap(([label, t]) => t.rows.map((r) => [label, ...r])),
    kinds: [undefined, ...(first?.kinds ?? [])],
    signed: [false, ...(first?.signed ?? [])],
    align: ['left', ...(first?.align ?? first?.headers.map((_, k) => (k === 0 ? 'left' : 'right')) ?? [])],
  };
}
