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
