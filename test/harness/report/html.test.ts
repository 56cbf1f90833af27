/**
 * report.html from rows and compilations: the same bytes every time (in this process and in
 * another), hostile corpus text escaped, every chart drawn from the rows' figures, one grid cell
 * per row coloured by its outcome, and the exact tables only when `exact` ran.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { columnOf, rowsOf, strategiesOf, strategyStats } from '../../../src/harness/metrics/index.js';
import { CAPS, gridOutcome, OUTCOME_LEGEND, readGrid } from '../../../src/harness/report/grid.js';
import { escapeHtml, reportHtml } from '../../../src/harness/report/html.js';
import { readRunFolder, reportFiles } from '../../../src/harness/runfolder/index.js';
import type { Row } from '../../../src/harness/types.js';
import { BUDGETS, VIOLATION_KINDS } from '../../../src/harness/vocabulary.js';
import { cli, processArgs } from '../../helpers/cli.js';
import { ROOT } from '../../helpers/corpus.js';
import {
  countOf,
  illegalBundle,
  overBudget,
  PEER_ORDER,
  PEER_ROWS,
  PEERS_HELD,
} from '../../helpers/peer-rows.js';
import { row } from '../../helpers/rows.js';
import { tempDir } from '../../helpers/temp.js';

// The process boundary is not what this file is about: strategies answer in this thread.
vi.mock('../../../src/harness/hosts/hosts.js', () => import('../../helpers/in-thread-hosts.js'));

/** A figure's or a column's words in the metric catalogue. */
const label = (name: string): string => columnOf(name).label;

const tmp = tempDir('report-html');
const run = path.join(tmp, 'run');
const compilations = path.join(run, 'compilations.jsonl');
let rows: Row[] = [];
let page = '';

beforeAll(async () => {
  const r = await cli('study', '--strategies', 'dump,compiler,exact', '--out', run);
  expect(r.code, r.stderr).toBe(0);
  rows = [...readRunFolder(run).rows];
  page = fs.readFileSync(path.join(run, 'report.html'), 'utf8');
});

/** The page's embedded data, parsed back. */
const dataOf = (html: string) => {
  const m = /<script type="application\/json" id="report-data">([\s\S]*?)<\/script>/.exec(html);
  if (m === null) throw new Error('no report-data');
  return JSON.parse(m[1] as string) as {
    cells: { k: number; case: string; detail: { text: string | null; trace: unknown[] } | null }[];
  };
};
/** One chart's SVG text, by its id. */
const chart = (html: string, id: string) =>
  new RegExp(`<figure class="chart" id="chart-${id}">[\\s\\S]*?</figure>`).exec(html)?.[0] ?? '';
/** The bars' labels of a chart: `strategy: x; <measure>: n; <series>: y`. */
const bars = (svg: string) => [...svg.matchAll(/aria-label="(strategy: [^"]*)"/g)].map((m) => m[1] as string);
const buttons = (html: string) => [
  ...html.matchAll(/<button type="button" class="cell o-([a-z-]+)" data-k="(\d+)"/g),
];

describe('report.html is the same bytes every time', () => {
  it('two renders of the same rows and compilations, and the one the study wrote, are equal', async () => {
    // The study's page carries prefix stability, which its rendered texts give.
    const render = async () =>
      (await reportFiles(rows, compilations, { name: 'compiler-v1' }))['report.html'];
    const a = await render();
    const b = await render();
    expect(a).toBe(b);
    expect(a).toBe(page);
  });

  it('another process, under another time zone and locale, regenerates it byte for byte', () => {
    const out = path.join(tmp, 'again');
    const r = spawnSync(process.execPath, processArgs('report', run, '--out', out), {
      cwd: ROOT,
      env: { ...process.env, TZ: 'Pacific/Chatham', LANG: 'tr_TR.UTF-8', LC_ALL: 'tr_TR.UTF-8' },
      encoding: 'utf8',
    });
    expect(r.status, r.stderr).toBe(0);
    expect(fs.readFileSync(path.join(out, 'report.html'), 'utf8')).toBe(page);
  });

  it('holds no date, no external reference and no script but its own two', () => {
    // The corpus's own dates (freshness) may be in the embedded data; none is in the page itself.
    const markup = page.replace(/<script type="application\/json"[\s\S]*?<\/script>/, '');
    expect(markup).not.toMatch(/\b20\d\d-\d\d-\d\d/);
    expect(markup).not.toMatch(/\b(src|href)="(?!#)/);
    expect(markup).not.toMatch(/url\(|@import|https?:\/\/(?!www\.w3\.org\/)/);
    expect([...page.matchAll(/<script/g)]).toHaveLength(2);
    expect(page).toContain(`content="default-src 'none';`);
  });

  it('lets only its own script run: the policy names that script by its hash, and no other way in', () => {
    const csp = /<meta http-equiv="Content-Security-Policy" content="([^"]*)">/.exec(page)?.[1] ?? '';
    const scriptSrc = csp.split('; ').find((d) => d.startsWith('script-src ')) ?? '';
    const code = /<script>([\s\S]*?)<\/script>/.exec(page)?.[1] ?? '';
    expect(code.length).toBeGreaterThan(1000);
    // A policy that allowed inline script in general would run an injected one too.
    expect(scriptSrc).toBe(`script-src 'sha256-${createHash('sha256').update(code).digest('base64')}'`);
  });
});

describe('the measures', () => {
  it('are sections of their own, a table row per strategy, prefix stability among them', () => {
    for (const id of ['placement', 'window', 'composition', 'prefix']) {
      const at = page.indexOf(`<section id="${id}">`);
      expect(at, id).toBeGreaterThan(0);
      const table = page.slice(at, page.indexOf('</section>', at));
      const firsts = [...table.matchAll(/<tr><td>([^<]*)<\/td>/g)].map((m) => m[1]);
      expect(firsts, id).toEqual(strategiesOf(rows));
    }
    expect(page).toContain('<a href="#placement">Measures</a>');
  });
});

describe('every chart, drawn from the rows', () => {
  it('has four charts, each an inline SVG', () => {
    for (const id of ['outcomes', 'violations', 'recall-tokens', 'composition'])
      expect(chart(page, id)).toMatch(/<svg[^>]*>/);
    expect([...page.matchAll(/<svg /g)]).toHaveLength(4);
  });

  it('(4) stacks each strategy’s tokens per budget by the frame and each class, as its rows sum them', () => {
    const tokensWord = label('rendered_tokens');
    const labels = [
      ...chart(page, 'composition').matchAll(new RegExp(`aria-label="(${tokensWord}: [^"]*)"`, 'g')),
    ].map((m) => m[1] as string);
    for (const name of strategiesOf(rows))
      for (const budget of ['tight', 'roomy'] as const) {
        const bundles = rowsOf(rows, name, budget).filter((r) => r.measures);
        const frame = bundles.reduce((n, r) => n + (r.measures?.composition.frame ?? 0), 0);
        const mandatory = bundles.reduce((n, r) => n + (r.measures?.composition.classes.MANDATORY ?? 0), 0);
        const has = (part: string, tokens: number) =>
          labels.some((l) =>
            l.startsWith(
              `${tokensWord}: ${tokens}; strategy: ${name}; budget: ${budget}; ${label('held_by')}: ${part};`,
            ),
          );
        expect(has('frame', frame), `${name} ${budget} frame ${frame}`).toBe(true);
        expect(has('mandatory', mandatory), `${name} ${budget} mandatory ${mandatory}`).toBe(true);
      }
  });

  it('(1) draws each strategy’s correct outcomes and refusals as summed from its rows', () => {
    const labels = bars(chart(page, 'outcomes'));
    for (const name of strategiesOf(rows)) {
      const own = rowsOf(rows, name);
      const correct = own.filter((r) => r.status_correct === true).length;
      const refusals = own.filter((r) => !r.success).length;
      // The chart's words are the catalogue's labels: of the figures it draws, and of their unit.
      expect(labels).toContain(`strategy: ${name}; compilations: ${correct}; measure: ${label('correct')}`);
      expect(labels).toContain(`strategy: ${name}; compilations: ${refusals}; measure: ${label('refusals')}`);
    }
    expect(labels).toContain('strategy: compiler; compilations: 8; measure: refusals');
  });

  it('(2) draws every violation kind of every strategy', () => {
    const labels = bars(chart(page, 'violations'));
    expect(labels).toHaveLength(strategiesOf(rows).length * VIOLATION_KINDS.length);
    for (const name of strategiesOf(rows)) {
      const v = strategyStats(rowsOf(rows, name)).violations;
      for (const kind of VIOLATION_KINDS)
        expect(labels).toContain(
          `strategy: ${name}; violations: ${v[kind]}; ${label('violation_kind')}: ${kind}`,
        );
    }
    // dump admits what fails the gates: a chart of zeros would not notice a broken sum.
    expect(VIOLATION_KINDS.some((k) => strategyStats(rowsOf(rows, 'dump')).violations[k] > 0)).toBe(true);
  });

  it('(3) draws must recall and rendered tokens for every strategy and budget', () => {
    const labels = bars(chart(page, 'recall-tokens'));
    for (const name of strategiesOf(rows))
      for (const b of BUDGETS) {
        const tokens = rowsOf(rows, name, b).reduce((s, r) => s + r.rendered_tokens, 0);
        expect(labels).toContain(`strategy: ${name}; ${label('rendered_tokens')}: ${tokens}; budget: ${b}`);
        // Over every compilation, a refusal scoring 0: the catalogue's third must recall.
        const recall = Number(strategyStats(rowsOf(rows, name, b)).must_recall_all?.toPrecision(12));
        expect(
          labels.some((l) => l.startsWith(`strategy: ${name}; must recall (all cells): ${recall}`)),
        ).toBe(true);
      }
  });
});

describe('the grid', () => {
  it('has one cell per row: cases x budgets x strategies, each opening its own compilation', () => {
    const cells = buttons(page);
    const cases = new Set(rows.map((r) => r.case)).size;
    expect(cells).toHaveLength(rows.length);
    expect(rows.length).toBe(cases * BUDGETS.length * strategiesOf(rows).length);
    expect(cells.map((m) => Number(m[2])).sort((x, y) => x - y)).toEqual(rows.map((_, k) => k));
    const data = dataOf(page);
    const lines = fs.readFileSync(compilations, 'utf8').trim().split('\n');
    for (const [k, c] of data.cells.entries()) {
      const line = JSON.parse(lines[k] as string);
      expect(c.case).toBe(line.case);
      expect(c.detail?.text).toBe(line.rendered_text);
      expect(c.detail?.trace).toHaveLength(line.result.trace.entries.length);
    }
  });

  it('colours each cell by its row’s outcome: a refusal as a refusal', () => {
    const byK = new Map(buttons(page).map((m) => [Number(m[2]), m[1]]));
    for (const [k, r] of rows.entries())
      expect(byK.get(k), `${r.case}/${r.budget}/${r.strategy}`).toBe(gridOutcome(r));
    const refused = rows.findIndex((r) => !r.success && r.strategy === 'compiler');
    expect(byK.get(refused)).toBe('refusal');
    const colour = OUTCOME_LEGEND.find((o) => o.outcome === 'refusal')?.colour;
    expect(page).toContain(`.o-refusal { background: ${colour}; }`);
    expect(gridOutcome(row({ success: false, reason: 'X', status_correct: false }))).toBe('wrong-refusal');
    expect(gridOutcome(row({ success: true, status_correct: false }))).toBe('wrong-bundle');
  });

  it('says where the details are when there is no compilations.jsonl', () => {
    const cells = readGrid(rows.slice(0, 3), path.join(tmp, 'nowhere.jsonl'), false).cells();
    expect(cells.map((c) => c.detail)).toEqual([null, null, null]);
    expect(cells[0]?.missing).toContain('no compilation recorded');
  });
});

describe('the exact tables', () => {
  it('are there when exact ran: one line per case and budget where anything refused', () => {
    const m = /<table id="exact-refusals">[\s\S]*?<\/table>/.exec(page)?.[0] ?? '';
    const refusedCells = new Set(rows.filter((r) => !r.success).map((r) => `${r.case}/${r.budget}`));
    expect([...m.matchAll(/<tr><td>/g)]).toHaveLength(refusedCells.size);
    for (const r of rows.filter((x) => x.strategy === 'exact' && !x.success))
      expect(m).toContain(`no: certified ${r.reason}`);
    expect(page).toContain('<table id="exact-against">');
  });

  it('are not there when exact did not run', async () => {
    const without = rows.filter((r) => r.strategy !== 'exact');
    const html = await reportHtml(without, 'no exact', null);
    expect(html).not.toContain('id="exact');
    expect(buttons(html)).toHaveLength(without.length);
  });
});

describe('hostile corpus content', () => {
  const HOSTILE = '</script><script>alert(1)</script><!--';
  const kase = `<img src=x onerror=alert(2)>"'&`;
  const text = `${HOSTILE}\u2028${'x'.repeat(CAPS.text + 10)}`;

  it('is escaped in markup, kept whole in the data, and never closes the page’s script', async () => {
    const hostile = [row({ case: kase, strategy: 'a' }), row({ case: kase, strategy: `b${HOSTILE}` })];
    const file = path.join(tmp, 'hostile.jsonl');
    const line = (r: Row) =>
      JSON.stringify({
        case: r.case,
        budget: r.budget,
        strategy: r.strategy,
        bundle: { id: HOSTILE, items: [{ id: HOSTILE, kind: 'evidence', position: 0, token_count: 1 }] },
        result: { trace: { entries: [{ candidate_id: HOSTILE, decision: 'ADMITTED' }] }, failure: null },
        rendered_text: text,
      });
    fs.writeFileSync(file, `${hostile.map(line).join('\n')}\n`);
    const html = await reportHtml(hostile, `title ${HOSTILE}`, file);
    expect([...html.matchAll(/<script/g)]).toHaveLength(2);
    expect(html).not.toContain('<img');
    expect(html).not.toContain('alert(1)</script>');
    expect(html).toContain(escapeHtml(kase));
    const data = dataOf(html) as unknown as {
      cells: { case: string; strategy: string; detail: { text: string; trace: string[][] } }[];
    };
    expect(data.cells.map((c) => c.case)).toEqual([kase, kase]);
    expect(data.cells[1]?.strategy).toBe(`b${HOSTILE}`);
    expect(data.cells[0]?.detail.trace[0]?.[0]).toBe(HOSTILE);
    // Capped: the start kept, how much is left out and where the whole is said.
    expect(data.cells[0]?.detail.text.startsWith(`${HOSTILE}\u2028`)).toBe(true);
    expect(data.cells[0]?.detail.text).toContain(
      `${text.length - CAPS.text} more characters; the whole is in compilations.jsonl line 1`,
    );
  });

  it('escapes the five characters that matter in text and attributes', () => {
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;');
  });
});

describe('the section of the compilers against the peers', () => {
  /** A table of the page by its id: header cells and each body row's cells, unescaped text. */
  const htmlTableOf = (html: string, id: string) => {
    const t = new RegExp(`<table id="${id}">([\\s\\S]*?)</table>`).exec(html)?.[1];
    if (t === undefined) return null;
    const cells = (tr: string, tag: string) =>
      [...tr.matchAll(new RegExp(`<${tag}[^>]*>([\\s\\S]*?)</${tag}>`, 'g'))].map((m) => m[1] as string);
    const trs = [...t.matchAll(/<tr>([\s\S]*?)<\/tr>/g)].map((m) => m[1] as string);
    return { headers: cells(trs[0] ?? '', 'th'), rows: trs.slice(1).map((tr) => cells(tr, 'td')) };
  };
  const shown = ['compiler-v2', 'compiler', 'aider-repomap', 'prompt-tsx'];

  it('is a section with its nav link, compilers then peers in the rows order', async () => {
    const html = await reportHtml(PEER_ROWS, 'peers', null);
    expect(html).toContain('<section id="peers">');
    expect(html).toContain('<a href="#peers">');
    const compilers = PEER_ORDER.filter((n) => n.startsWith('compiler'));
    const whole = htmlTableOf(html, 'peers-table');
    expect(whole?.rows.map((r) => r[0])).toEqual([
      ...compilers,
      ...PEER_ORDER.filter((n) => PEERS_HELD.includes(n)),
    ]);
    expect(whole?.rows.map((r) => r[0])).toEqual(shown);
    // the tables sit inside the section
    const section = /<section id="peers">[\s\S]*?<\/section>/.exec(html)?.[0] ?? '';
    expect(section).toContain('<table id="peers-table">');
  });

  it('counts over budget and illegal bundles from the rows, in the whole run and per budget', async () => {
    const html = await reportHtml(PEER_ROWS, 'peers', null);
    const check = (id: string, rows: readonly Row[]) => {
      const t = htmlTableOf(html, id);
      expect(t, id).not.toBeNull();
      const over = t?.headers.indexOf('over budget') ?? -1;
      const illegal = t?.headers.indexOf('illegal bundles') ?? -1;
      expect([over > 0, illegal > 0], id).toEqual([true, true]);
      expect(t?.rows.map((r) => r[0])).toEqual(shown);
      for (const line of t?.rows ?? []) {
        const mine = rows.filter((r) => r.strategy === line[0]);
        expect(line[over], `${id} ${line[0]}`).toBe(String(countOf(mine, overBudget)));
        expect(line[illegal], `${id} ${line[0]}`).toBe(String(countOf(mine, illegalBundle)));
      }
    };
    check('peers-table', PEER_ROWS);
    const present = BUDGETS.filter((b) => PEER_ROWS.some((r) => r.budget === b));
    expect(present).toEqual(['tight', 'medium']);
    for (const b of present)
      check(
        `peers-${b}`,
        PEER_ROWS.filter((r) => r.budget === b),
      );
    expect(html).not.toContain('id="peers-roomy"');
  });

  it('is absent, nav link and all, with peers but no compiler or compilers but no peer', async () => {
    const noCompiler = PEER_ROWS.filter((r) => !r.strategy.startsWith('compiler'));
    const noPeer = PEER_ROWS.filter((r) => !PEERS_HELD.includes(r.strategy));
    for (const rows of [noCompiler, noPeer]) {
      const html = await reportHtml(rows, 'no peers', null);
      expect(html).not.toContain('id="peers');
      expect(html).not.toContain('href="#peers"');
    }
    // the study of this file ran compiler but no peer
    expect(page).not.toContain('id="peers"');
  });
});
