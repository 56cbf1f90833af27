/**
 * The localization measures an ingested corpus's report leads with, on hand-made rows whose
 * figures are worked out here: file recall (refusals 0), file precision (the task not a file),
 * bundles holding every changed file, tokens; and the section only for an ingested corpus.
 */
import { describe, expect, it } from 'vitest';
import { localizationOf } from '../../../src/harness/metrics/index.js';
import { reportHtml, reportMarkdown } from '../../../src/harness/report/index.js';
import { INGESTED_TASK_ID, STRATEGY_ERROR } from '../../../src/harness/vocabulary.js';
import { row } from '../../helpers/rows.js';

const T = INGESTED_TASK_ID;
// Two changed files in each case. a holds both with two other files; b one of them and the task
// alone besides; c refuses where a bundle is expected; an error row counts for nothing.
const rows = [
  row({
    case: 'c1',
    strategy: 'a',
    admitted: [T, 'x#full', 'y#outline', 'p#full', 'q#reference'],
    must_total: 2,
    must_recall: 1,
    rendered_tokens: 900,
  }),
  row({
    case: 'c2',
    strategy: 'a',
    admitted: [T, 'x#full', 'p#full'],
    must_total: 2,
    must_recall: 0.5,
    rendered_tokens: 500,
  }),
  row({
    case: 'c1',
    strategy: 'b',
    admitted: [T, 'x#reference'],
    must_total: 2,
    must_recall: 0.5,
    rendered_tokens: 40,
  }),
  row({ case: 'c2', strategy: 'b', admitted: [T], must_total: 2, must_recall: 0, rendered_tokens: 20 }),
  row({
    case: 'c1',
    strategy: 'c',
    success: false,
    reason: 'INSUFFICIENT_BUDGET',
    admitted: [],
    must_total: 2,
    must_recall: 0,
    rendered_tokens: 0,
  }),
  row({
    case: 'c2',
    strategy: 'c',
    reason: STRATEGY_ERROR,
    success: false,
    must_recall: null,
    must_total: null,
  }),
];
const of = (s: string) => localizationOf(rows.filter((r) => r.strategy === s));

describe('localization measures', () => {
  it('file recall, precision without the task, every changed file held, tokens', () => {
    // a: recall (1 + 0.5) / 2; precision (2/4 + 1/2) / 2; one bundle holds both; tokens (900 + 500) / 2.
    expect(of('a')).toEqual({
      file_recall: 0.75,
      file_precision: 0.5,
      complete: 1,
      expected: 2,
      mean_tokens: 700,
      refusals: 0,
    });
    // b: the task-only bundle holds no file, so it has no precision; the other holds 1 of 1 shown.
    expect(of('b')).toEqual({
      file_recall: 0.25,
      file_precision: 1,
      complete: 0,
      expected: 2,
      mean_tokens: 30,
      refusals: 0,
    });
    // c: a refusal scores 0 where a bundle was expected; the error row is not scored at all.
    expect(of('c')).toEqual({
      file_recall: 0,
      file_precision: null,
      complete: 0,
      expected: 1,
      mean_tokens: null,
      refusals: 1,
    });
  });

  it('lead the report of an ingested corpus, and nowhere else', async () => {
    const md = reportMarkdown(rows, 'r', true);
    expect(md.indexOf('## Localization')).toBeGreaterThan(0);
    expect(md.indexOf('## Localization')).toBeLessThan(md.indexOf('## Correct outcomes'));
    expect(md).toMatch(/^\| a \| 0\.7500 \| 0\.5000 \| 1 of 2 \| 700\.0 \| 0 \|$/m);
    expect(reportMarkdown(rows, 'r')).not.toContain('Localization');
    const html = await reportHtml(rows, 'r', null, true);
    expect(html.indexOf('<section id="localization">')).toBeLessThan(html.indexOf('<section id="headline">'));
    expect(html).toContain('<a href="#localization">');
    expect(await reportHtml(rows, 'r', null)).not.toContain('id="localization"');
  });
});
