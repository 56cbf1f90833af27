/**
 * docs/reliability.md's table of figures, written by the suites that measure them: each suite
 * hands its row to `figureRow` after its own assertions passed. Under `npm test` a row that
 * differs from the page fails the suite (the page went stale); `npm run figures` runs the suites
 * with CTXBENCH_WRITE_FIGURES=1, one file at a time, and the rows are written instead. The rows
 * are the CI samples' figures; under test:full the counts differ, so nothing is compared there.
 */
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import { ROOT } from './corpus.js';
import { FULL } from './tier.js';

const PAGE = path.join(ROOT, 'docs/reliability.md');
const START = '<!-- figures:start (written by the suites: npm run figures) -->';
const END = '<!-- figures:end -->';
const HEAD = ['| suite | command | figure |', '| --- | --- | --- |'];

const cell = (s: string) => s.replaceAll('|', '\\|').replaceAll('\n', ' ');

/** Integers with thousands separators, as the rest of the docs print them. */
export const n = (x: number): string => x.toLocaleString('en-US');

/** `a 3, b 5` from a record of counts, in the record's order. */
export const counted = (counts: Readonly<Record<string, number>>): string =>
  Object.entries(counts)
    .map(([k, v]) => `${k} ${n(v)}`)
    .join(', ');

function tableOf(page: string): { before: string; rows: string[]; after: string } {
  const start = page.indexOf(START);
  const end = page.indexOf(END);
  if (start < 0 || end < start) throw new Error(`${PAGE}: no figures table between ${START} and ${END}`);
  const body = page
    .slice(start + START.length, end)
    .split('\n')
    .filter((l) => l.startsWith('|') && !HEAD.includes(l));
  return { before: page.slice(0, start + START.length), rows: body, after: page.slice(end) };
}

/**
 * The row of `suite` (its first cell, the key): `file` is the test file, run by the command the
 * row names; `figure` what it measured. No-op under test:full.
 */
export function figureRow(suite: string, file: string, figure: string): void {
  if (FULL) return;
  const row = `| ${cell(suite)} | \`npx vitest run ${file}\` | ${cell(figure)} |`;
  const page = fs.readFileSync(PAGE, 'utf8');
  const { before, rows, after } = tableOf(page);
  const k = rows.findIndex((r) => r.startsWith(`| ${cell(suite)} |`));
  if (process.env.CTXBENCH_WRITE_FIGURES !== '1') {
    expect(rows[k], `${PAGE}: the figures of "${suite}" are stale: run npm run figures`).toBe(row);
    return;
  }
  if (k >= 0) rows[k] = row;
  else rows.push(row);
  fs.writeFileSync(PAGE, `${before}\n${[...HEAD, ...rows].join('\n')}\n${after}`);
}
