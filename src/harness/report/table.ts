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
  const line = (cells: readonly string[]) => `| ${cells.join(' | ')} |`;
  return `${[line(headers), line(rule), ...rows.map(line)].join('\n')}\n`;
}

/** How a command prints a table: aligned text for terminals, Markdown, CSV, or JSON. */
export const TABLE_FORMATS = ['text', 'md', 'csv', 'json'] as const;
export type TableFormat = (typeof TABLE_FORMATS)[number];

/** A cell as data: text, a number shown to `digits` places (thousands separated), or nothing. */
export type Cell = string | number | null;

/** A table as data, so that each format can print it its own way. */
export interface Table {
  readonly headers: readonly string[];
  readonly rows: readonly (readonly Cell[])[];
  /** Decimal places per column for numbers in text and Markdown (0 when absent). */
  readonly digits?: readonly number[];
  readonly align?: readonly Align[];
}

/**
 * The table in `format`. Text and Markdown show numbers as people read them (`5,318,541`,
 * `0.83`, `-` for nothing); CSV and JSON keep the numbers as numbers, for programs.
 */
export function renderTable(t: Table, format: TableFormat): string {
  if (format === 'json') {
    const objects = t.rows.map((r) => Object.fromEntries(t.headers.map((h, k) => [h, r[k] ?? null])));
    return `${JSON.stringify(objects, null, 2)}\n`;
  }
  if (format === 'csv') {
    const quote = (c: Cell) => {
      const s = c === null ? '' : String(c);
      return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
    };
    return `${[t.headers, ...t.rows].map((r) => r.map(quote).join(',')).join('\n')}\n`;
  }
  const shown = t.rows.map((r) =>
    r.map((c, k) => {
      if (typeof c !== 'number') return c ?? '-';
      const digits = t.digits?.[k] ?? 0;
      return c.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
    }),
  );
  const align = t.align ?? t.headers.map((_, k) => (k === 0 ? 'left' : 'right'));
  return format === 'md' ? markdownTable(t.headers, shown, align) : textTable(t.headers, shown, align);
}
