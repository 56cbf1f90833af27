/**
 * The README's headline table is generated (`npm run reports`) and held to what the code
 * produces: the table made from the committed reports/summary.json, which study.test.ts holds to
 * a fresh study. `ctxbench study` prints the same table: `headlineTable` of the same statistics
 * (`summary.json` is those statistics, written as JSON), rendered as Markdown under `--format md`.
 * Comparing with a whole CLI study here would cost half a minute for no other path.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  HEADLINE_END,
  HEADLINE_START,
  headlineMarkdown,
  type RunSummary,
  withHeadline,
} from '../../../src/harness/report/readme-headline.js';
import { REPORT_STRATEGIES } from '../../../src/harness/vocabulary.js';
import { ROOT } from '../../helpers/corpus.js';

const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
const summary = JSON.parse(fs.readFileSync(path.join(ROOT, 'reports/summary.json'), 'utf8')) as RunSummary;
const table = headlineMarkdown(summary);

describe("the README's headline", () => {
  it('is the table made from the reference run (npm run reports regenerates it)', () => {
    expect(withHeadline(readme, table), 'README.md headline drifted: run npm run reports').toBe(readme);
    // One row per report strategy, in their order, under the table's header and rule.
    const rows = table.trim().split('\n').slice(2);
    expect(rows.map((r) => r.split(' | ')[0])).toEqual(REPORT_STRATEGIES.map((s) => `| ${s}`));
  });

  it('replaces only what stands between the markers, and refuses a README out of shape', () => {
    const text = `# x\n\n${HEADLINE_START}\n| old | table |\n| --- | --- |\n${HEADLINE_END}\n\nafter\n`;
    expect(withHeadline(text, '| a |\n| --- |\n')).toBe(
      `# x\n\n${HEADLINE_START}\n| a |\n| --- |\n${HEADLINE_END}\n\nafter\n`,
    );
    expect(withHeadline(withHeadline(text, table), table)).toBe(withHeadline(text, table));
    expect(() => withHeadline('# x\n', table)).toThrow(HEADLINE_START);
    expect(() => withHeadline(`${HEADLINE_END}\n${HEADLINE_START}\n`, table)).toThrow(/comes before/);
    expect(() => withHeadline(`${HEADLINE_START}\n${HEADLINE_START}\n${HEADLINE_END}\n`, table)).toThrow(
      /found 2/,
    );
  });
});
