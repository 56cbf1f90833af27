/**
 * report.html: one self-contained page per run folder. The charts are SVG rendered at build
 * time (charts.ts), the grid opens each compilation's bundle, rendered text and trace from JSON
 * the page carries (grid.ts, page.ts), and the exact tables follow when `exact` ran. No network,
 * no external script or font, no date: like every file of a run folder but the manifest, the
 * same rows and compilations give the same bytes. Everything from the corpus is escaped.
 */

import { createHash } from 'node:crypto';
import { count, int, plural } from '../format.js';
import {
  columnOf,
  headersOf,
  type PrefixStability,
  statsByStrategy,
  strategiesOf,
} from '../metrics/index.js';
import type { Row, StrategyStats } from '../types.js';
import { BUDGETS } from '../vocabulary.js';
import { type Chart, renderCharts } from './charts.js';
import { renderFound } from './charts-found.js';
import {
  COLOUR_MEASURES,
  type CompilationSource,
  type GridCell,
  GridReader,
  ITEM_COLUMNS,
  OUTCOME_LEGEND,
  readGrid,
  TRACE_COLUMNS,
} from './grid.js';
import { headlineTable } from './headline.js';
import {
  cellTable,
  escapeHtml,
  exactSectionHtml,
  htmlTable,
  localizationSectionHtml,
  peersSectionHtml,
  verdictSectionHtml,
} from './html-sections.js';
import { intervalTable } from './intervals.js';
import { measureSections } from './measure-sections.js';
import { PACKED_SCRIPT, SCRIPT, STYLE } from './page.js';
import { peerNames } from './peers.js';

export { escapeHtml } from './html-sections.js';

/**
 * JSON for a `<script type="application/json">`: every `<` escaped inside its strings (none
 * occurs outside one), so no content can close the element or open a comment.
 */
const scriptJson = (x: unknown): string =>
  JSON.stringify(x)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');

/**
 * Nothing loads, and the one script that runs is the page's own: the page says so to the browser,
 * so a reader opening a hostile run's report makes no request whatever the page holds, and a
 * script some future flaw let a run's text inject would not run either (only a script whose
 * SHA-256 is the page's own may).
 */
const cspFor = (script: string): string =>
  `default-src 'none'; style-src 'unsafe-inline'; script-src 'sha256-${createHash('sha256').update(script).digest('base64')}'; img-src data:`;

function chartsSection(charts: readonly Chart[]): string {
  const figures = charts.map(
    (c) =>
      `<figure class="chart" id="chart-${c.id}"><figcaption>${escapeHtml(c.title)}</figcaption>\n${c.svg}\n</figure>`,
  );
  return `<section id="charts"><h2>Charts</h2><div class="charts">\n${figures.join('\n')}\n</div></section>`;
}

/** An ingested corpus's lead: whether the needed files are in the window (charts-found.ts). */
const foundSection = (c: Chart): string =>
  `<section id="found"><h2>Every needed file, by limit</h2>\n<figure class="chart" id="chart-${c.id}"><figcaption>${escapeHtml(c.title)}</figcaption>\n${c.svg}\n</figure></section>`;

/**
 * On an ingested corpus's page a figure, and the grid (a column per strategy and budget), scroll
 * inside themselves when wider than the window, never the page.
 */
const INGESTED_STYLE =
  'figure.chart, .grid-and-detail { max-width: 100%; overflow-x: auto; box-sizing: border-box; }';

const cellTitle = (c: GridCell, label: string): string =>
  `${c.case} / ${c.budget} / ${c.strategy}: ${label}${c.reason === null ? '' : ` (${c.reason})`}, ` +
  `${c.rendered_tokens} of ${c.budget_tokens} ${plural(c.budget_tokens, 'token')}`;

/** A `<select>` of the page's controls: its id, its words, and its options as (value, words). */
const select = (id: string, label: string, options: readonly (readonly [string, string])[]): string =>
  `<label>${escapeHtml(label)} <select id="${id}">${options
    .map(([value, words]) => `<option value="${escapeHtml(value)}">${escapeHtml(words)}</option>`)
    .join('')}</select></label>`;

/** The grid's controls: what colours the cells, which cells show, and the order of the cases. */
function gridControls(names: readonly string[], budgets: readonly string[]): string {
  const all: readonly [string, string] = ['', 'all'];
  return [
    '<p id="grid-controls">',
    select('colour-by', 'colour by', [
      ['outcome', 'outcome'],
      ...COLOUR_MEASURES.map((m) => [m.field, m.label] as const),
    ]),
    select('filter-strategy', columnOf('strategy').label, [all, ...names.map((n) => [n, n] as const)]),
    select('filter-budget', columnOf('budget').label, [all, ...budgets.map((b) => [b, b] as const)]),
    select('filter-outcome', 'outcome', [all, ...OUTCOME_LEGEND.map((o) => [o.outcome, o.label] as const)]),
    `<label>${columnOf('case').label} <input id="filter-case" type="search" placeholder="part of a name"></label>`,
    select('sort-cases', 'cases', [
      ['name', 'by name'],
      ['wrong', 'most unexpected outcomes first'],
    ]),
    '</p>',
  ].join(' ');
}

/** The budgets and cases of the grid, in its order. */
const gridShape = (cells: readonly GridCell[]) => ({
  budgets: BUDGETS.filter((b) => cells.some((c) => c.budget === b)),
  cases: [...new Set(cells.map((c) => c.case))],
});

/**
 * The case x budget x strategy grid: a row per case, a column per budget and strategy. A packed
 * page's script builds its rows from the data (PACKED_SCRIPT): the same cells, the page smaller.
 */
function gridSection(cells: readonly GridCell[], names: readonly string[], packed: boolean): string {
  const { budgets, cases } = gridShape(cells);
  const label = new Map(OUTCOME_LEGEND.map((o) => [o.outcome, o.label]));
  const at = new Map(cells.map((c) => [`${c.case}\n${c.budget}\n${c.strategy}`, c]));
  const head1 = budgets
    .map(
      (b) =>
        `<th class="b" colspan="${names.length}" data-span="${names.length}" data-budget="${b}">${b}</th>`,
    )
    .join('');
  const column = (b: string, n: string) => `data-budget="${b}" data-strategy="${escapeHtml(n)}"`;
  const head2 = budgets
    .flatMap((b) => names.map((n) => `<th class="s" ${column(b, n)}>${escapeHtml(n)}</th>`))
    .join('');
  const body = (packed ? [] : cases).map((kase) => {
    const tds = budgets.flatMap((b) =>
      names.map((n) => {
        const c = at.get(`${kase}\n${b}\n${n}`);
        if (c === undefined) return `<td ${column(b, n)}></td>`;
        const title = escapeHtml(cellTitle(c, label.get(c.outcome) ?? c.outcome));
        return `<td ${column(b, n)}><button type="button" class="cell o-${c.outcome}" data-k="${c.k}" data-outcome="${c.outcome}" title="${title}" aria-label="${title}"></button></td>`;
      }),
    );
    return `<tr data-case="${escapeHtml(kase)}"><th scope="row">${escapeHtml(kase)}</th>${tds.join('')}</tr>`;
  });
  const legend = OUTCOME_LEGEND.map(
    (o) => `<span class="sw o-${o.outcome}" data-outcome="${o.outcome}"></span>${escapeHtml(o.label)}`,
  ).join('');
  return [
    '<section id="grid"><h2>Every compilation</h2>',
    `<p>One cell per case, budget and strategy (${int(cells.length)} in all), coloured by outcome or by a ` +
      "measure. Open a cell for its bundle, its rendered text and its decision trace, and set another strategy's " +
      "bundle beside it; the page's address then names the cell (<code>#cell=case/budget/strategy</code>), so a " +
      'link opens it.</p>',
    gridControls(names, budgets),
    `<p class="legend" id="grid-legend">${legend}</p>`,
    '<p class="legend" id="measure-legend" hidden></p>',
    '<div class="grid-and-detail">',
    `<table id="grid-table"><thead><tr><th rowspan="2">${columnOf('case').label}</th>${head1}</tr><tr>${head2}</tr></thead><tbody>`,
    ...(packed ? [] : [body.join('\n')]),
    '</tbody></table>',
    '<div id="detail" hidden></div>',
    '</div>',
    '</section>',
  ].join('\n');
}

/** The headline `study` prints, the catalogue's figures per strategy, then the same with intervals. */
function headlineSection(
  rows: readonly Row[],
  names: readonly string[],
  stats: ReadonlyMap<string, StrategyStats>,
): string {
  const t = headlineTable(stats);
  return [
    '<section id="headline"><h2>Headline</h2>',
    "<p>Sums over each strategy's compilations; must recall is the mean over those expected to return a bundle.</p>",
    htmlTable(cellTable(t), 'headline-table', (k) => k > 0),
    '<h3>With 95% intervals</h3>',
    '<p>Rates of correct outcomes and refusals with their Wilson intervals; means (must recall over the ' +
      'compilations expected to return a bundle, nDCG and the useful share over bundles) with a ' +
      'bootstrap interval of 2,000 resamples, seeded by the strategy and the figure. Where two ' +
      "strategies' intervals overlap, <code>ctxbench compare RUN --strategies a,b</code> tests the pair cell by cell.</p>",
    htmlTable(cellTable(intervalTable(rows, names)), 'interval-table', (k) => k > 0),
    '</section>',
  ].join('\n');
}

/**
 * The page of a run: `rows` in loop order, `compilations` the run's compilations.jsonl or its
 * lines in the rows' order (null or a missing file: the grid's cells then hold no details), or
 * its grid already read (its packer then says whether the page is packed),
 * `title` the report's title. An ingested corpus's page leads with the verdict and the
 * localization measures, and its data is packed (packed-page.ts): `packed` says so for a page of
 * another title (compare's).
 */
export async function reportHtml(
  rows: readonly Row[],
  title: string,
  compilations: CompilationSource | GridReader,
  ingested = false,
  prefix?: ReadonlyMap<string, PrefixStability>,
  packed = ingested,
): Promise<string> {
  const names = strategiesOf(rows);
  const stats = statsByStrategy(rows, names);
  const cases = new Set(rows.map((r) => r.case)).size;
  const grid = compilations instanceof GridReader ? compilations : readGrid(rows, compilations, packed);
  const { packer } = grid;
  const cells = grid.cells();
  const charts = await renderCharts(rows, names, ingested);
  const found = ingested ? await renderFound(rows, names) : null;
  const data = {
    outcomes: Object.fromEntries(OUTCOME_LEGEND.map((o) => [o.outcome, o.label])),
    measures: Object.fromEntries(COLOUR_MEASURES.map((m) => [m.field, m.label])),
    // The words of an opened cell's facts, in the order the page's script lists them.
    facts: headersOf('cell_facts'),
    itemColumns: ITEM_COLUMNS,
    traceColumns: TRACE_COLUMNS,
    cells,
    ...(packer === undefined ? {} : { grid: { ...gridShape(cells), names } }),
  };
  const sections = [
    `<h1>${escapeHtml(title)}</h1>`,
    `<p>${count(rows.length, 'compilation')}: ${count(cases, 'case')} x ${BUDGETS.length} budgets x ` +
      `${count(names.length, 'strategy')}. ` +
      'Generated from rows.jsonl and compilations.jsonl; every number is computed, none is typed in.</p>',
    `<nav>${ingested ? '<a href="#found">Found</a><a href="#verdict">Verdict</a><a href="#localization">Localization</a>' : ''}<a href="#headline">Headline</a><a href="#charts">Charts</a><a href="#grid">Every compilation</a>${rows.some((r) => r.measures) ? '<a href="#placement">Measures</a>' : ''}${peerNames(names) === null ? '' : '<a href="#peers">Against the peers</a>'}${names.includes('exact') ? '<a href="#exact">Against exact</a>' : ''}</nav>`,
    found === null ? '' : foundSection(found),
    ingested ? verdictSectionHtml(rows, names) : '',
    ingested ? localizationSectionHtml(rows, names) : '',
    headlineSection(rows, names, stats),
    chartsSection(charts),
    gridSection(cells, names, packer !== undefined),
    ...measureSections(rows, names, stats, prefix).map(
      (m) =>
        `<section id="${m.id}"><h2>${escapeHtml(m.title)}</h2>\n<p>${escapeHtml(m.prose)}</p>\n${htmlTable(cellTable(m.table), `${m.id}-table`, (k) => k > 0)}\n</section>`,
    ),
    peersSectionHtml(rows, names),
    exactSectionHtml(rows, names),
  ];
  const script = packer === undefined ? SCRIPT : PACKED_SCRIPT;
  return [
    '<!DOCTYPE html>',
    '<html lang="en"><head><meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="${cspFor(script)}">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(title)}</title>`,
    `<style>${STYLE}${ingested ? INGESTED_STYLE : ''}</style>`,
    '</head><body>',
    ...sections.filter((s) => s !== ''),
    `<script type="application/json" id="report-data">${packer === undefined ? scriptJson(data) : packer.payload(data)}</script>`,
    `<script>${script}</script>`,
    '</body></html>',
    '',
  ].join('\n');
}
