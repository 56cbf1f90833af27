/**
 * The CLI's tables read back, to check that every format prints the same rows: CSV parsed by
 * RFC 4180's rules, aligned text split by the columns its rule of dashes marks out. Neither uses
 * the code under test.
 */
import { expect } from 'vitest';

/** CSV as rows of fields: quoted fields may hold commas, quotes doubled and line breaks. */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let k = 0; k < text.length; k++) {
    const c = text[k] as string;
    if (quoted) {
      if (c === '"' && text[k + 1] === '"') {
        field += '"';
        k++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(field);
      field = '';
    } else if (c === '\n') {
      rows.push([...row, field]);
      row = [];
      field = '';
    } else field += c;
  }
  expect(quoted, 'an unclosed quote').toBe(false);
  expect(field === '' && row.length === 0, 'the last line ends in a line break').toBe(true);
  const width = rows[0]?.length;
  for (const r of rows) expect(r, 'every line as many fields as the header').toHaveLength(width ?? 0);
  return rows;
}

export interface TextTable {
  readonly headers: string[];
  readonly rows: string[][];
}

/**
 * Every aligned table in a command's text output: a header line, a rule of dashes under each
 * column, then rows up to a blank line or the end.
 */
export function textTables(text: string): TextTable[] {
  const lines = text.split('\n');
  const tables: TextTable[] = [];
  for (const [k, line] of lines.entries()) {
    if (!/^-+( {2}-+)*$/.test(line) || k === 0) continue;
    const spans = [...line.matchAll(/-+/g)].map((m) => [m.index, m.index + m[0].length] as const);
    // Each cell lies within its column's dashes, padded on the left or the right.
    const cut = (l: string) => spans.map(([from, to]) => l.slice(from, to).trim());
    const end = lines.findIndex((l, j) => j > k && l === '');
    tables.push({
      headers: cut(lines[k - 1] as string),
      rows: lines.slice(k + 1, end < 0 ? undefined : end).map(cut),
    });
  }
  return tables;
}

/** A text cell and a CSV field hold the same value: the same text, or the same number as shown. */
function sameCell(shown: string, field: string, where: string): void {
  if (field === '') {
    expect(['', '-'], where).toContain(shown);
    return;
  }
  const n = Number(field);
  if (Number.isNaN(n) || field.trim() !== field || !/^[-+\d,.]+$/.test(shown)) {
    expect(shown, where).toBe(field);
    return;
  }
  // Shown to some places with separators: the field's number must round to it.
  const plain = shown.replace(/,/g, '');
  const places = plain.includes('.') ? plain.length - plain.indexOf('.') - 1 : 0;
  expect(Math.abs(Number(plain) - n), `${where}: ${shown} for ${field}`).toBeLessThanOrEqual(
    0.5 * 10 ** -places + 1e-9,
  );
}

/** The text table's rows, cell by cell, are the CSV's (after its header; `skip` leading columns dropped). */
export function expectSameRows(text: TextTable, csv: readonly string[][], skip = 0): void {
  expect(csv[0]?.slice(skip)).toEqual(text.headers);
  const fields = csv.slice(1).map((r) => r.slice(skip));
  expect(fields).toHaveLength(text.rows.length);
  for (const [k, row] of text.rows.entries())
    for (const [j, shown] of row.entries())
      sameCell(shown, fields[k]?.[j] as string, `row ${k + 1}, ${text.headers[j]}`);
}

/** A Markdown table: a header line, then the line of `---` (or `---:`) that makes it one. */
export function expectMarkdownTable(md: string): void {
  const lines = md.split('\n');
  const rule = lines.findIndex((l) => /^\| (---:?)( \| ---:?)* \|$/.test(l));
  expect(rule, md.slice(0, 200)).toBeGreaterThan(0);
  expect(lines[rule - 1]).toMatch(/^\| .* \|$/);
  expect(lines[rule - 1]?.split(' | ')).toHaveLength(lines[rule]?.split(' | ').length ?? 0);
}
