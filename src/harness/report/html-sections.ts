/**
 * The tables and sections report.html shares with report.md, as HTML: the verdict and the
 * localization measures of an ingested corpus, the compilers against the peers, the exact tables.
 * Everything from the corpus is escaped.
 */
import { verdictOf } from '../metrics/index.js';
import type { Row } from '../types.js';
import { type CellTable, exactProse, exactTables } from './exact-sections.js';
import {
  LOCALIZATION_PROSE,
  localizationTables,
  REPOSITORY_PROSE,
  repositoryTables,
} from './localization.js';
import { peersSection } from './peers.js';
import { shownCells, type Table } from './table.js';
import { VERDICT_PROSE, verdictSentences, verdictTable } from './verdict.js';

const ENTITIES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Text for an element's content or a quoted attribute value. */
export const escapeHtml = (s: string): string => s.replace(/[&<>"']/g, (c) => ENTITIES[c] as string);

export function htmlTable(t: CellTable, id: string, numeric: (k: number) => boolean = () => false): string {
  const head = t.headers.map((h) => `<th>${escapeHtml(h)}</th>`).join('');
  const body = t.lines
    .map(
      (line) =>
        `<tr>${line.map((c, k) => `<td${numeric(k) ? ' class="n"' : ''}>${escapeHtml(c)}</td>`).join('')}</tr>`,
    )
    .join('\n');
  return `<table id="${id}"><thead><tr>${head}</tr></thead><tbody>\n${body}\n</tbody></table>`;
}

export const cellTable = (t: Table): CellTable => ({ headers: t.headers, lines: shownCells(t) });

/**
 * A section of tables by budget, as report.md's peers and localization sections have them: a
 * heading, its prose, an optional table over every budget, then one table per budget.
 */
function budgetSection(
  id: string,
  title: string,
  prose: string,
  whole: Table | null,
  budgets: readonly { readonly budget: string; readonly table: Table }[],
): string {
  return [
    `<section id="${id}"><h2>${escapeHtml(title)}</h2>`,
    `<p>${escapeHtml(prose)}</p>`,
    ...(whole === null ? [] : [htmlTable(cellTable(whole), `${id}-table`, (k) => k > 0)]),
    ...budgets.flatMap(({ budget, table }) => [
      `<h3>${budget}</h3>`,
      htmlTable(cellTable(table), `${id}-${budget}`, (k) => k > 0),
    ]),
    '</section>',
  ].join('\n');
}

/** report.md's section of the compilers against the peers: only when both ran. */
export function peersSectionHtml(rows: readonly Row[], names: readonly string[]): string {
  const p = peersSection(rows, names);
  return p === null ? '' : budgetSection('peers', p.title, p.prose, p.whole, p.budgets);
}

/** report.md's verdict, for an ingested corpus: a heading, its rule, then each budget's answer and standings. */
export function verdictSectionHtml(rows: readonly Row[], names: readonly string[]): string {
  return [
    '<section id="verdict"><h2>Verdict</h2>',
    `<p>${escapeHtml(VERDICT_PROSE)}</p>`,
    ...verdictOf(rows, names).flatMap((v) => [
      `<h3>${v.budget}</h3>`,
      `<p>${escapeHtml(verdictSentences(v).join(' '))}</p>`,
      htmlTable(cellTable(verdictTable(v)), `verdict-${v.budget}`, (k) => k > 1),
    ]),
    '</section>',
  ].join('\n');
}

/** report.md's localization section, for an ingested corpus, and its tables by repository where there are several. */
export function localizationSectionHtml(rows: readonly Row[], names: readonly string[]): string {
  const byRepository = repositoryTables(rows, names);
  return [
    budgetSection('localization', 'Localization', LOCALIZATION_PROSE, null, localizationTables(rows, names)),
    ...(byRepository.length === 0
      ? []
      : [budgetSection('by-repository', 'Localization by repository', REPOSITORY_PROSE, null, byRepository)]),
  ].join('\n');
}

/** The exact sections of report.md, as HTML tables: only when `exact` ran. */
export function exactSectionHtml(rows: readonly Row[], names: readonly string[]): string {
  if (!names.includes('exact')) return '';
  const t = exactTables(rows, names);
  const p = exactProse(t, (s) => `<code>${s}</code>`, String);
  return [
    `<section id="exact"><h2>${p.refusalsTitle}</h2>`,
    `<p>${p.refusals}</p>`,
    htmlTable(t.refusals, 'exact-refusals'),
    `<h2>${p.againstTitle}</h2>`,
    `<p>${p.against}</p>`,
    htmlTable(t.against, 'exact-against', (k) => k > 0),
    '</section>',
  ].join('\n');
}
