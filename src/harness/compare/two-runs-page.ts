/**
 * `compare --html`: the page `report` writes for one run, made of two. Over the compilations both
 * runs hold, each strategy's rows of A and of B stand side by side as `<strategy> (A)` and
 * `<strategy> (B)`, so the headline and its intervals, the charts and the grid (two strategies'
 * bundles beside each other included) read as one run of twice the strategies. For two
 * strategies of one run, it is that run's page of those two.
 */
import { reportHtml } from '../report/index.js';
import { compilationId, compiledLines, folderTexts, type RunFolder } from '../runfolder/index.js';
import type { Row } from '../types.js';

type Line = string | Record<string, unknown>;

const ingested = (run: RunFolder) => run.manifest?.corpus.ingested === true;

/**
 * A run's compilation lines by compilation, as its rows name them, those of an ingested corpus
 * read back from its corpus where they hold their texts by reference; none without the file.
 */
function linesById(run: RunFolder): Map<string, Line> {
  const out = new Map<string, Line>();
  let k = 0;
  for (const line of compiledLines(run.compilations, folderTexts(run.dir, run.manifest))) {
    const r = run.rows[k++];
    if (r === undefined) break;
    if (line !== '') out.set(compilationId(r), line);
  }
  return out;
}

/** A line under another strategy's name, so that it stays its row's own; unreadable lines stay as they are. */
function renamed(line: Line | undefined, strategy: string): Line {
  if (line === undefined) return '';
  if (typeof line !== 'string') return { ...line, strategy };
  try {
    return JSON.stringify({ ...JSON.parse(line), strategy });
  } catch {
    return line;
  }
}

/** Two runs' compilations, side by side. */
export function comparisonPage(a: RunFolder, b: RunFolder): Promise<string> {
  const [linesA, linesB] = [linesById(a), linesById(b)];
  const rowsB = new Map(b.rows.map((r) => [compilationId(r), r]));
  const rows: Row[] = [];
  const lines: Line[] = [];
  for (const ra of a.rows) {
    const rb = rowsB.get(compilationId(ra));
    if (rb === undefined) continue;
    for (const [r, side, from] of [
      [ra, 'A', linesA],
      [rb, 'B', linesB],
    ] as const) {
      const strategy = `${r.strategy} (${side})`;
      rows.push({ ...r, strategy });
      lines.push(renamed(from.get(compilationId(r)), strategy));
    }
  }
  const title = `Comparison: ${a.dir} (A) and ${b.dir} (B)`;
  return reportHtml(rows, title, lines, false, undefined, ingested(a) || ingested(b));
}

/** Two strategies of one run, side by side: its page of those two. */
export function strategiesPage(run: RunFolder, x: string, y: string): Promise<string> {
  const lines = linesById(run);
  const rows = run.rows.filter((r) => r.strategy === x || r.strategy === y);
  return reportHtml(
    rows,
    `Comparison: ${x} and ${y} in ${run.dir}`,
    rows.map((r) => lines.get(compilationId(r)) ?? ''),
    false,
    undefined,
    ingested(run),
  );
}
