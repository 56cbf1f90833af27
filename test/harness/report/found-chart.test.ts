/**
 * An ingested corpus's report.html (issue 52): it leads with the share of cases holding every
 * needed file, whole and in any form, by limit, a panel per strategy, each point the rows' own
 * figure (read back from the chart's accessible labels); it leaves out the charts that would show
 * nothing; and in Chromium at 1,280 pixels nothing scrolls sideways, with 27 strategies. The page
 * of a corpus that is not ingested keeps its charts.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { localizationOf } from '../../../src/harness/metrics/index.js';
import { reportHtml } from '../../../src/harness/report/html.js';
import type { Row } from '../../../src/harness/types.js';
import { BUDGETS, MAP_ONLY } from '../../../src/harness/vocabulary.js';
import { chromium, noChromium, withBrowser } from '../../helpers/browser.js';
import { ROOT } from '../../helpers/corpus.js';
import { tempDir } from '../../helpers/temp.js';

const rows: Row[] = fs
  .readFileSync(path.join(ROOT, 'reports/self-2026-12/rows.jsonl'), 'utf8')
  .split('\n')
  .filter(Boolean)
  .map((l) => JSON.parse(l));
const names = [...new Set(rows.map((r) => r.strategy))];
const section = (html: string, id: string): string => {
  const at = html.indexOf(`<section id="${id}">`);
  return at < 0 ? '' : html.slice(at, html.indexOf('</section>', at));
};

/** Each panel's points, by the strategy its title names: `limit|share|sense`, each once. */
function panels(svg: string): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  let points = new Set<string>();
  for (const [, label] of svg.matchAll(/aria-label="([^"]*)"/g)) {
    const title = /^Title text '(.*)'$/.exec(label as string);
    if (title !== null) {
      out.set(title[1] as string, points);
      points = new Set();
      continue;
    }
    const point = /^limit: (\w+); share: ([\d.]+)%; sense: (.*)$/.exec(label as string);
    if (point !== null) points.add(`${point[1]}|${point[2]}|${point[3]}`);
  }
  return out;
}

describe("an ingested corpus's report.html", () => {
  it('leads with every needed file by limit: a panel per strategy, each point the figure of its rows', async () => {
    const html = await reportHtml(rows, 'self', null, true);
    expect(html.indexOf('<section id="found">')).toBeLessThan(html.indexOf('<section id="verdict">'));
    const drawn = panels(section(html, 'found'));
    expect([...drawn.keys()]).toEqual(names);
    for (const strategy of names) {
      const expected = new Set<string>();
      for (const budget of BUDGETS) {
        const mine = rows.filter((r) => r.strategy === strategy && r.budget === budget);
        const limit = `${Math.round((mine[0] as Row).budget_tokens / 1000)}k`;
        const f = localizationOf(mine);
        // A map holds no file's body by design: it has no whole line, never a line at 0.
        if (!MAP_ONLY.includes(strategy))
          expected.add(`${limit}|${(100 * (f.fullText.all as number)).toFixed(6)}|every needed file whole`);
        expected.add(
          `${limit}|${(100 * (f.anyForm.all as number)).toFixed(6)}|every needed file in any form`,
        );
      }
      expect(drawn.get(strategy), strategy).toEqual(expected);
    }
  });

  it('leaves out the outcomes where every compilation is correct and the violations where there are none', async () => {
    const has = (html: string, id: string) => html.includes(`id="chart-${id}"`);
    // Every strategy that never refuses: nothing for the outcomes chart to tell apart.
    const quiet = rows.filter((r) => ['topk', 'bm25', 'compiler-v2'].includes(r.strategy));
    expect(quiet.every((r) => r.status_correct)).toBe(true);
    const ingested = await reportHtml(quiet, 'self', null, true);
    expect([has(ingested, 'outcomes'), has(ingested, 'violations'), has(ingested, 'recall-tokens')]).toEqual([
      false,
      false,
      true,
    ]);
    // The oracle refuses where the changed files do not fit: then the outcomes are drawn.
    expect(has(await reportHtml(rows, 'self', null, true), 'outcomes')).toBe(true);
    const plain = await reportHtml(quiet, 'self', null, false);
    expect([has(plain, 'outcomes'), has(plain, 'violations'), has(plain, 'found')]).toEqual([
      true,
      true,
      false,
    ]);
  });

  it.skipIf(chromium === undefined)(
    `scrolls nowhere sideways at 1,280 pixels, 27 strategies wide${chromium === undefined ? ` (${noChromium})` : ''}`,
    async () => {
      const file = path.join(tempDir('found-chart'), 'report.html');
      fs.writeFileSync(file, await reportHtml(rows, 'self', null, true));
      await withBrowser(async (open) => {
        const { page, problems, requested } = await open();
        await page.goto(`file://${file}`);
        // The page's own width against the window's, read in the page.
        const width = await page.evaluate(() => {
          const g = globalThis as unknown as {
            document: { documentElement: { scrollWidth: number } };
            innerWidth: number;
          };
          return [g.document.documentElement.scrollWidth, g.innerWidth];
        });
        expect(width[0]).toBeLessThanOrEqual(width[1] as number);
        expect([problems, requested]).toEqual([[], []]);
      });
    },
    120_000,
  );
});
