/**
 * report.html in a real browser: headless Chromium (Debian's, driven by playwright-core) opens
 * the page a study wrote from file:// with every request off the file system refused, finds the
 * charts and the grid, checks cells against the run's rows, opens a refusal and a bundle and
 * reads their traces and texts back against compilations.jsonl, and saves a screenshot
 * (`docs/report.png` is made by scripts/screenshot.mjs, the same way, from a default run). Where
 * no Chromium is found, the test is skipped and says why.
 */
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it, vi } from 'vitest';
import { headersOf } from '../../src/harness/metrics/index.js';
import { reportHtml } from '../../src/harness/report/index.js';
import { readRunFolder } from '../../src/harness/runfolder/index.js';
import type { Row } from '../../src/harness/types.js';
import { chromium, noChromium, withBrowser } from '../helpers/browser.js';
import { cli } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp.js';

// The process boundary is not what this file is about: strategies answer in this thread.
vi.mock('../../src/harness/hosts/hosts.js', () => import('../helpers/in-thread-hosts.js'));

if (chromium === undefined) console.log(`report-html: ${noChromium}`);

const tmp = tempDir('report-html-browser');

/** The browser's own, inside `evaluate`: the project's types leave out the DOM. */
declare const getComputedStyle: (e: unknown) => { readonly backgroundColor: string };

interface Line {
  readonly rendered_text: string | null;
  readonly bundle: { readonly items: readonly unknown[] } | null;
  readonly result: {
    readonly trace: { readonly entries: readonly { readonly candidate_id: string }[] };
    readonly failure: { readonly reason: string; readonly blocking_ids?: readonly string[] } | null;
  };
}

const jsonLines = <T>(file: string): T[] =>
  fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as T);

describe('report.html in headless Chromium', () => {
  it.skipIf(chromium === undefined)(
    'shows every chart and the grid, and opens a cell’s bundle, text and trace from file://',
    async () => {
      const out = path.join(tmp, 'run');
      const r = await cli('study', '--strategies', 'dump,compiler,exact', '--out', out);
      expect(r.code, r.stderr).toBe(0);
      const rows = jsonLines<Row>(path.join(out, 'rows.jsonl'));
      const lines = jsonLines<Line>(path.join(out, 'compilations.jsonl'));

      await withBrowser(async (open) => {
        const { page, problems, requested } = await open();
        await page.goto(pathToFileURL(path.join(out, 'report.html')).href);

        // Every chart: an SVG with a size and bars in it.
        const charts = page.locator('figure.chart');
        expect(await charts.count()).toBe(4);
        for (const id of ['outcomes', 'violations', 'recall-tokens', 'composition']) {
          const svg = page.locator(`#chart-${id} svg`);
          const box = await svg.boundingBox();
          expect(box?.width ?? 0, id).toBeGreaterThan(100);
          expect(await svg.locator('[aria-roledescription="bar"]').count(), id).toBeGreaterThan(0);
        }

        // The grid: one cell per row, each coloured as the legend colours its outcome.
        const cells = page.locator('#grid-table button.cell');
        expect(await cells.count()).toBe(rows.length);
        const colourOf = (selector: string) =>
          page
            .locator(selector)
            .first()
            .evaluate((e) => getComputedStyle(e).backgroundColor);
        const refusalColour = await colourOf('.legend [data-outcome="refusal"]');
        const bundleColour = await colourOf('.legend [data-outcome="bundle"]');
        expect(refusalColour).not.toBe(bundleColour);
        expect(
          await page
            .locator('.legend [data-outcome]')
            .evaluateAll((es) => es.map((e) => e.getAttribute('data-outcome'))),
        ).toContain('refusal');

        const refused = rows.findIndex((x) => !x.success && x.strategy === 'compiler' && x.status_correct);
        const shipped = rows.findIndex((x) => x.success && x.strategy === 'exact' && x.admitted.length > 0);
        expect(refused).toBeGreaterThanOrEqual(0);
        expect(await colourOf(`button[data-k="${refused}"]`)).toBe(refusalColour);
        expect(await colourOf(`button[data-k="${shipped}"]`)).toBe(bundleColour);

        // A refusal opened: its title, its reason, every trace entry.
        expect(await page.locator('#detail').isVisible()).toBe(false);
        await page.locator(`button[data-k="${refused}"]`).click();
        const no = rows[refused] as Row;
        const noLine = lines[refused] as Line;
        await expect.poll(() => page.locator('#detail').isVisible()).toBe(true);
        expect(await page.locator('#detail-title').textContent()).toBe(
          `${no.case} / ${no.budget} / ${no.strategy}`,
        );
        expect(await page.locator('#detail-failure').textContent()).toContain(noLine.result.failure?.reason);
        // The refusal in words first: its reason and the candidates that blocked it, as the line has them.
        const words = await page.locator('#detail-refusal dd').allTextContents();
        expect(words[0]).toBe(noLine.result.failure?.reason);
        const blocking = noLine.result.failure?.blocking_ids ?? [];
        expect(words[1]).toBe(blocking.length === 0 ? '(none named)' : blocking.join(', '));
        const traceRows = page.locator('#detail-trace tbody tr');
        expect(await traceRows.count()).toBe(noLine.result.trace.entries.length);
        // The words of a trace entry a reader needs, as the catalogue labels the opened cell's trace.
        expect(await page.locator('#detail-trace thead th').allTextContents()).toEqual(
          headersOf('page_trace'),
        );
        expect(await traceRows.first().locator('td').first().textContent()).toBe(
          noLine.result.trace.entries[0]?.candidate_id,
        );

        // A bundle opened: its items and its rendered text, character for character.
        await page.locator(`button[data-k="${shipped}"]`).click();
        const yesLine = lines[shipped] as Line;
        expect(await page.locator('#detail-bundle tbody tr').count()).toBe(yesLine.bundle?.items.length);
        expect(await page.locator('#detail-text').textContent()).toBe(yesLine.rendered_text);
        expect(await page.locator('#detail-trace tbody tr').count()).toBe(
          yesLine.result.trace.entries.length,
        );

        // The exact tables, since exact ran.
        expect(await page.locator('#exact-refusals tbody tr').count()).toBeGreaterThan(0);

        const shot = path.join(tmp, 'report.png');
        await page.locator(`button[data-k="${refused}"]`).click();
        await page.screenshot({ path: shot, fullPage: true });
        expect(fs.statSync(shot).size).toBeGreaterThan(10_000);

        expect(requested).toEqual([]);
        expect(problems).toEqual([]);
      });
    },
  );

  it.skipIf(chromium === undefined)(
    'runs its own script and nothing injected into it: a script element, an inline handler, a javascript: link',
    async () => {
      const out = path.join(tmp, 'run-csp');
      const r = await cli('study', '--strategies', 'dump,compiler', '--out', out);
      expect(r.code, r.stderr).toBe(0);
      const rows = readRunFolder(out).rows;
      // The page a study writes, and the packed one of an ingested corpus or of compare: two scripts.
      const pages = {
        plain: fs.readFileSync(path.join(out, 'report.html'), 'utf8'),
        packed: await reportHtml(
          rows,
          'packed',
          path.join(out, 'compilations.jsonl'),
          false,
          undefined,
          true,
        ),
      };
      // What a future flaw in the escaping could let a run's text put into the page.
      const injected =
        '<script>window.injected = "script"</script>' +
        '<img id="bad-img" src="data:," onload="window.injected = \'handler\'">' +
        '<a id="bad-link" href="javascript:window.injected = \'link\'">x</a>';
      await withBrowser(async (open) => {
        for (const [kind, html] of Object.entries(pages)) {
          const file = path.join(tmp, `injected-${kind}.html`);
          fs.writeFileSync(file, html.replace('</h1>', `</h1>${injected}`));
          const { page, problems, requested } = await open();
          await page.goto(pathToFileURL(file).href);
          await page.locator('#bad-link').click();
          // The page's own script ran: a cell opens.
          await page.locator('#grid-table button.cell').first().click();
          await expect.poll(() => page.locator('#detail').isVisible()).toBe(true);
          expect(
            await page.evaluate(() => (globalThis as { injected?: string }).injected ?? null),
            kind,
          ).toBeNull();
          expect(requested).toEqual([]);
          // The browser says it refused each, and nothing else went wrong.
          expect(problems.length, kind).toBeGreaterThanOrEqual(2);
          for (const p of problems) expect(p, kind).toMatch(/Content Security Policy/);
        }
      });
    },
  );
});
