/**
 * report.html's controls in headless Chromium, each checked against the run's own rows: the
 * headline's intervals, colouring the grid by a measure, filtering by strategy, budget, outcome
 * and case, sorting the cases, an address that opens a cell, and two strategies' bundles side
 * by side with the ids only one holds marked.
 */
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it, vi } from 'vitest';
import type { Row } from '../../src/harness/types.js';
import { chromium, noChromium, withBrowser } from '../helpers/browser.js';
import { cli } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp.js';

// The process boundary is not what this file is about: strategies answer in this thread.
vi.mock('../../src/harness/hosts/hosts.js', () => import('../helpers/in-thread-hosts.js'));

if (chromium === undefined) console.log(`report-html-controls: ${noChromium}`);

/** The browser's own, inside `evaluate`: the project's types leave out the DOM. */
declare const getComputedStyle: (e: unknown) => {
  readonly backgroundColor: string;
  readonly opacity: string;
};

const tmp = tempDir('report-html-controls');

describe('report.html: the controls a reader analyses with', () => {
  it.skipIf(chromium === undefined)(
    'colour, filter, sort, a cell by its address, two bundles side by side',
    async () => {
      const out = path.join(tmp, 'run');
      const r = await cli('study', '--strategies', 'dump,compiler', '--out', out);
      expect(r.code, r.stderr).toBe(0);
      const rows = fs
        .readFileSync(path.join(out, 'rows.jsonl'), 'utf8')
        .split('\n')
        .filter((l) => l !== '')
        .map((l) => JSON.parse(l) as Row);
      const url = pathToFileURL(path.join(out, 'report.html')).href;

      await withBrowser(async (open) => {
        const { page, problems, requested } = await open();
        await page.goto(url);
        const colour = (k: number) =>
          page.locator(`button[data-k="${k}"]`).evaluate((e) => getComputedStyle(e).backgroundColor);

        // The headline with intervals: a row per strategy, each rate inside its interval.
        const intervals = page.locator('#interval-table tbody tr');
        expect(await intervals.count()).toBe(2);
        const correct = (await intervals.first().locator('td').nth(2).textContent()) ?? '';
        const [x, low, high] = (correct.match(/[\d.]+/g) ?? []).map(Number);
        const dumpRows = rows.filter((row) => row.strategy === 'dump');
        expect(x).toBeCloseTo(dumpRows.filter((row) => row.status_correct).length / dumpRows.length, 4);
        expect(low).toBeLessThanOrEqual(x as number);
        expect(high).toBeGreaterThanOrEqual(x as number);

        // Colour by must recall: a cell of recall 1 and one of recall 0 turn green and red.
        const full = rows.findIndex((row) => row.must_recall === 1);
        const none = rows.findIndex((row) => row.must_recall === 0);
        expect(full).toBeGreaterThanOrEqual(0);
        expect(none).toBeGreaterThanOrEqual(0);
        const before = await colour(full);
        await page.selectOption('#colour-by', 'must_recall');
        const [green, red] = [await colour(full), await colour(none)];
        expect(green).not.toBe(before);
        const rgb = (c: string) => (c.match(/\d+/g) ?? []).map(Number);
        expect((rgb(green)[1] ?? 0) > (rgb(green)[0] ?? 0)).toBe(true);
        expect((rgb(red)[0] ?? 0) > (rgb(red)[1] ?? 0)).toBe(true);
        expect(await page.locator('#measure-legend').isVisible()).toBe(true);
        await page.selectOption('#colour-by', 'outcome');
        expect(await colour(full)).toBe(before);

        // Filters: one strategy's columns, one budget's, one outcome's cells at full strength.
        const shown = () => page.locator('#grid-table button.cell:visible').count();
        await page.selectOption('#filter-strategy', 'compiler');
        expect(await shown()).toBe(rows.filter((row) => row.strategy === 'compiler').length);
        await page.selectOption('#filter-budget', 'tight');
        expect(await shown()).toBe(
          rows.filter((row) => row.strategy === 'compiler' && row.budget === 'tight').length,
        );
        await page.selectOption('#filter-strategy', '');
        await page.selectOption('#filter-budget', '');
        await page.selectOption('#filter-outcome', 'refusal');
        const dimmed = await page.locator('#grid-table button.cell.dim').count();
        expect(dimmed).toBe(rows.filter((row) => row.success || row.status_correct !== true).length);
        await page.selectOption('#filter-outcome', '');
        const kase = rows[0]?.case as string;
        await page.fill('#filter-case', kase);
        const visibleCases = await page
          .locator('#grid-table tbody tr:visible')
          .evaluateAll((trs) =>
            trs.map((tr) => (tr as unknown as { getAttribute(n: string): string }).getAttribute('data-case')),
          );
        expect(visibleCases.every((c) => c.includes(kase))).toBe(true);
        expect(visibleCases).toContain(kase);
        await page.fill('#filter-case', '');

        // Sorted by unexpected outcomes: the first case has the most.
        const unexpected = new Map<string, number>();
        for (const row of rows)
          if (row.status_correct !== true) unexpected.set(row.case, (unexpected.get(row.case) ?? 0) + 1);
        const most = Math.max(0, ...unexpected.values());
        await page.selectOption('#sort-cases', 'wrong');
        const first = await page.locator('#grid-table tbody tr').first().getAttribute('data-case');
        expect(unexpected.get(first as string) ?? 0).toBe(most);

        // Two bundles side by side: a case and budget where dump and compiler admitted different ids.
        const k = rows.findIndex((row) => {
          const other = rows.find(
            (o) => o.case === row.case && o.budget === row.budget && o.strategy === 'compiler',
          );
          return (
            row.strategy === 'dump' &&
            row.success &&
            other?.success === true &&
            other.admitted.join() !== row.admitted.join()
          );
        });
        expect(k).toBeGreaterThanOrEqual(0);
        const dump = rows[k] as Row;
        const compiler = rows.find(
          (o) => o.case === dump.case && o.budget === dump.budget && o.strategy === 'compiler',
        ) as Row;
        await page.locator(`button[data-k="${k}"]`).click();
        expect(decodeURIComponent(new URL(page.url()).hash)).toBe(`#cell=${dump.case}/${dump.budget}/dump`);
        await page.selectOption('#detail-vs', { label: 'compiler' });
        const marked = await page.locator('#detail-beside-table td.only').allTextContents();
        const onlyOne = [
          ...dump.admitted.filter((id) => !compiler.admitted.includes(id)),
          ...compiler.admitted.filter((id) => !dump.admitted.includes(id)),
        ];
        expect(marked.sort()).toEqual(onlyOne.sort());

        // The address alone opens the cell, in a page of its own.
        const again = await open();
        await again.page.goto(
          `${url}#cell=${encodeURIComponent(`${compiler.case}/${compiler.budget}/compiler`)}`,
        );
        await expect
          .poll(() => again.page.locator('#detail-title').textContent())
          .toBe(`${compiler.case} / ${compiler.budget} / compiler`);

        // compare --html: the page of two runs (here the run and itself), each strategy as (A) and (B).
        const both = path.join(tmp, 'both.html');
        expect((await cli('compare', out, out, '--html', both)).code).toBe(0);
        const paired = await open();
        await paired.page.goto(pathToFileURL(both).href);
        expect(await paired.page.locator('#grid-table button.cell').count()).toBe(2 * rows.length);
        await paired.page.locator('#grid-table button.cell').first().click();
        await paired.page.selectOption('#detail-vs', { label: `${rows[0]?.strategy} (B)` });
        // The same compilation on both sides: nothing only one holds.
        expect(await paired.page.locator('#detail-beside-summary').textContent()).toMatch(
          / 0 only in .* 0 only in /,
        );

        expect([...requested, ...again.requested, ...paired.requested]).toEqual([]);
        expect([...problems, ...again.problems, ...paired.problems]).toEqual([]);
      });
    },
  );
});
