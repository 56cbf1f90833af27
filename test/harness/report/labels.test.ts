/**
 * The metric catalogue is the one source of labels: no report module spells a column label of its
 * own (checked on the source), and every header of the tables report.md and report.html show on the
 * reference run is a catalogue label (checked on what they print). Each label names one thing.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  COLUMN_TABLES,
  COLUMNS,
  columnOf,
  FIGURES,
  PAIRED_FIGURES,
  ROW_MEASURES,
  ROW_METRICS,
  TABLES,
} from '../../../src/harness/metrics/catalogue.js';
import { rateOf } from '../../../src/harness/report/findings-parts.js';
import { reportHtml } from '../../../src/harness/report/html.js';
import { intervalTable } from '../../../src/harness/report/intervals.js';
import { reportMarkdown } from '../../../src/harness/report/markdown.js';
import { traceTable, traceView } from '../../../src/harness/report/trace-text.js';
import { BUDGETS, STRATEGY_ERROR } from '../../../src/harness/vocabulary.js';
import { ROOT } from '../../helpers/corpus.js';
import { row } from '../../helpers/rows.js';
import { referenceStudy } from '../../helpers/study.js';

const REPORT = path.join(ROOT, 'src/harness/report');

/** The catalogue lookups a module may name a column through: their arguments are names, not labels. */
const LOOKUP = /\b(?:columnOf|headersOf|kindsOf|figuresOf|fieldsOf)\(\s*'[^']*'\s*\)/g;

/**
 * The quoted words inside every array a module heads a table with: a `headers:` value, a constant
 * named `...HEADERS` or `...COLUMNS`, or the headers given to `markdownTable` or `textTable`.
 */
function spelledLabels(source: string): string[] {
  const text = source.replace(/\/\*[\s\S]*?\*\//g, '').replace(LOOKUP, 'LOOKUP');
  const found: string[] = [];
  const starts =
    /headers:\s*\[|\b\w*(?:HEADERS|COLUMNS)\b[^=\n]*=\s*\[|\b(?:markdownTable|textTable)\(\s*\[/g;
  for (const m of text.matchAll(starts)) {
    const open = (m.index ?? 0) + m[0].length - 1;
    let depth = 0;
    let k = open;
    for (; k < text.length; k++) {
      if (text[k] === '[') depth++;
      else if (text[k] === ']' && --depth === 0) break;
    }
    for (const lit of text.slice(open, k + 1).matchAll(/'([^'\n]*)'|"([^"\n]*)"|`([^`]*)`/g))
      found.push(lit[1] ?? lit[2] ?? lit[3] ?? '');
  }
  return found;
}

/** The header cells of every Markdown table in a document. */
const markdownHeaders = (md: string): string[] =>
  md
    .split('\n')
    .flatMap((line, k, lines) =>
      line.startsWith('| ') && /^\| -{3}/.test(lines[k + 1] ?? '') ? line.slice(2, -2).split(' | ') : [],
    );

const LABELS = new Set(
  [...ROW_METRICS, ...ROW_MEASURES, ...FIGURES, ...PAIRED_FIGURES, ...Object.values(COLUMNS)].map(
    (e) => e.label,
  ),
);

describe('the catalogue, the one source of labels', () => {
  it('no report module spells a column label of its own', () => {
    const modules = fs.readdirSync(REPORT).filter((f) => f.endsWith('.ts'));
    expect(modules.length).toBeGreaterThan(15);
    for (const f of modules)
      expect(spelledLabels(fs.readFileSync(path.join(REPORT, f), 'utf8')), `report/${f}`).toEqual([]);
  });

  it('the check sees a label spelt in a header, a constant of columns, or a table call', () => {
    expect(spelledLabels("return { headers: ['strategy', ...figures.map((f) => f.label)] };")).toEqual([
      'strategy',
    ]);
    expect(spelledLabels("const AGAINST_HEADERS = [\n  'strategy',\n  'false refusals',\n];")).toEqual([
      'strategy',
      'false refusals',
    ]);
    expect(spelledLabels("markdownTable(['strategy', ...budgets], body)")).toEqual(['strategy']);
    // A constant with a type: the columns of a tuple list.
    expect(
      spelledLabels("const COLUMNS: readonly (readonly [h: string])[] = [['blocking', 'left']];"),
    ).toEqual(['blocking', 'left']);
    expect(spelledLabels("headers: [columnOf('strategy').label, ...headersOf('prefix')]")).toEqual([]);
  });

  it('every name a table lists is in the catalogue', () => {
    for (const [table, names] of Object.entries({ ...TABLES, ...COLUMN_TABLES }))
      for (const name of names) expect(() => columnOf(name), `${table}: ${name}`).not.toThrow();
  });

  it('report.md and report.html head every table with catalogue labels (or budget names)', async () => {
    const { rows } = await referenceStudy();
    const allowed = (h: string) => LABELS.has(h) || (BUDGETS as readonly string[]).includes(h);
    const md = markdownHeaders(reportMarkdown(rows, 'reference', true));
    expect(md.length).toBeGreaterThan(80);
    expect(md.filter((h) => !allowed(h))).toEqual([]);
    const html = await reportHtml(rows, 'reference', null, true);
    // The grid's column heads are budgets and strategy names; every other table's are labels.
    const heads = [
      ...html.replace(/<table id="grid-table">[\s\S]*?<\/table>/, '').matchAll(/<th>([^<]*)<\/th>/g),
    ];
    expect(heads.length).toBeGreaterThan(80);
    expect(heads.map((m) => (m[1] as string).replace(/&amp;/g, '&')).filter((h) => !allowed(h))).toEqual([]);
  });

  it("a decision trace's columns, in the CLI and on the page, are the catalogue's", () => {
    const view = traceView(
      { success: true, bundle_tokens: 0, bundle_hash: 'h', failure: null, trace: { entries: [] } } as never,
      [],
    );
    expect(traceTable(view, []).headers.filter((h) => !LABELS.has(h))).toEqual([]);
  });
});

describe('one label per concept', () => {
  it('names must recall over three populations with three labels, and budget slack over two with two', () => {
    const label = (name: string) => columnOf(name).label;
    const recall = ['must_recall_feasible', 'must_recall_all', 'must_recall'].map(label);
    expect(new Set(recall).size).toBe(3);
    expect(recall[0]).toBe('must recall');
    expect(new Set(['budget_slack_feasible', 'budget_slack'].map(label)).size).toBe(2);
  });

  it('gives each figure, each row metric and each column one label of its own', () => {
    for (const family of [FIGURES, ROW_METRICS, ROW_MEASURES, PAIRED_FIGURES, Object.values(COLUMNS)]) {
      const labels = family.map((e) => e.label);
      expect(labels.filter((l, k) => labels.indexOf(l) !== k)).toEqual([]);
    }
  });

  it('a label shared by a row metric and a strategy figure is the sum or mean of that row metric over every cell', () => {
    // The figures whose population is every scored compilation, read off the same row metric.
    const overEvery: Record<string, string> = {
      should_recall: 'should_recall',
      precision: 'precision',
      distractor_admission: 'distractor',
      harmful_admission: 'harmful',
      illegal_admission: 'illegal',
      under_admission: 'under_admission',
      over_admission: 'over_admission',
      status_correct: 'correct',
    };
    for (const m of ROW_METRICS) {
      const shared = FIGURES.find((f) => f.label === m.label);
      if (shared === undefined || m.name.endsWith('_violations')) continue;
      expect(overEvery[m.name], `${m.name} and ${shared.name} share "${m.label}"`).toBe(shared.name);
    }
  });

  it('says "refusals" for refusals everywhere: the paired figure and the interval table', () => {
    expect(PAIRED_FIGURES[0]?.name).toBe('refusals');
    expect(PAIRED_FIGURES[0]?.label).toBe(columnOf('refusals').label);
    expect(TABLES.intervals).toContain('refusals');
  });
});

describe("one definition of each rate's denominator", () => {
  it("report.html's interval table and findings' {{rate}} count refusals among the same compilations", () => {
    // Four compilations: two bundles, a refusal and an error. Refusals count among every
    // compilation, the error included: 1 of 4, wherever the rate is quoted.
    const rows = [
      row({}),
      row({ case: 'c2' }),
      row({ case: 'c3', success: false, reason: 'INSUFFICIENT_BUDGET', budget_slack: null }),
      row({ case: 'c4', success: false, reason: STRATEGY_ERROR }),
    ];
    expect(rateOf(rows, 'refusals')).toMatch(/^1 of 4 /);
    const t = intervalTable(rows, ['a']);
    const cell = (name: string) => t.rows[0]?.[t.headers.indexOf(columnOf(name).label)];
    // 1 / 4, not the 1 / 3 of the scored compilations alone.
    expect(cell('refusals')).toMatch(/^0\.2500 \[/);
    expect(cell('rows')).toBe('4');
  });
});
