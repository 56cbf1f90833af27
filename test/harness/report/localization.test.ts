/**
 * The localization measures an ingested corpus's report leads with, on hand-made rows whose
 * figures are worked out here: Avg, All and Any in full text and in any form (refusals 0), the
 * must token share, the first must rank, file precision (the task not a file), tokens; and the
 * section only for an ingested corpus.
 */
import { describe, expect, it } from 'vitest';
import { localizationOf } from '../../../src/harness/metrics/index.js';
import { renderFindings, reportHtml, reportMarkdown } from '../../../src/harness/report/index.js';
import { repositoryTables } from '../../../src/harness/report/localization.js';
import type { Measures } from '../../../src/harness/types.js';
import { INGESTED_TASK_ID, STRATEGY_ERROR } from '../../../src/harness/vocabulary.js';
import { measures, row } from '../../helpers/rows.js';

const T = INGESTED_TASK_ID;
// What a bundle's measures say beyond the row's figures: the rest is the measures' business.
const said = (
  must_sufficient_recall: number,
  must_token_share: number,
  ranked_must_rr: number | null,
  ranked_all_must_rank: number | null = null,
) => measures({ must_sufficient_recall, must_token_share, ranked_must_rr, ranked_all_must_rank });
// Two changed files in each case. a holds both, one of them whole, with two other files, then one
// of them whole; b one of them by name, then the task alone; c refuses where a bundle is expected;
// an error row counts for nothing.
// What a bundle earns under the audit's objective: the model's expected needed files held.
const earned = (preferred: number, discretionary: number) => ({
  legal: true,
  missing_required: [],
  objective: { preferred, discretionary, rendered_cost: 0 },
});
const rows = [
  row({
    case: 'c1',
    strategy: 'a',
    admitted: [T, 'x#full', 'y#outline', 'p#full', 'q#reference'],
    must_total: 2,
    must_recall: 1,
    rendered_tokens: 900,
    measures: said(0.5, 0.4, 1, 1),
    audit: earned(0.5, 0.75),
  }),
  row({
    case: 'c2',
    strategy: 'a',
    admitted: [T, 'x#full', 'p#full'],
    must_total: 2,
    must_recall: 0.5,
    rendered_tokens: 500,
    measures: said(0.5, 0.2, 1 / 3, 4),
    audit: earned(0, 0.25),
  }),
  row({
    case: 'c1',
    strategy: 'b',
    admitted: [T, 'x#reference'],
    must_total: 2,
    must_recall: 0.5,
    rendered_tokens: 40,
    measures: said(0, 0.05, null),
  }),
  row({
    case: 'c2',
    strategy: 'b',
    admitted: [T],
    must_total: 2,
    must_recall: 0,
    rendered_tokens: 20,
    measures: said(0, 0, null),
  }),
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
  it("the paper's Avg, All and Any in full text and in any form, and the rest", () => {
    // a: full text (0.5 + 0.5) / 2, neither whole, both at least one; any form (1 + 0.5) / 2, one
    // complete, both some. Token share (0.4 + 0.2) / 2; ranks 1 and 3, the lower median 1; both
    // files ranked by 1 and by 4: accuracy 1/2 at 1 and at 3, 1 at 5; precision (2/4 + 1/2) / 2;
    // tokens (900 + 500) / 2.
    expect(of('a')).toEqual({
      fullText: { avg: 0.5, all: 0, any: 1 },
      anyForm: { avg: 0.75, all: 0.5, any: 1 },
      must_token_share: expect.closeTo(0.3, 12),
      first_rank: 1,
      acc_at_1: 0.5,
      acc_at_3: 0.5,
      acc_at_5: 1,
      file_precision: 0.5,
      mean_tokens: 700,
      refusals: 0,
      expected: 2,
      // Earned 1.25 and 0.25; held 1 + 1 in full text, 2 + 1 in any form.
      expected_held: 1.5,
      held_full_text: 2,
      held_any_form: 3,
    });
    // b: a file by name is found in any form only; the task-only bundle holds no file, so it has
    // no precision; b publishes no ranking.
    expect(of('b')).toEqual({
      fullText: { avg: 0, all: 0, any: 0 },
      anyForm: { avg: 0.25, all: 0, any: 0.5 },
      must_token_share: 0.025,
      first_rank: null,
      acc_at_1: null,
      acc_at_3: null,
      acc_at_5: null,
      file_precision: 1,
      mean_tokens: 30,
      refusals: 0,
      expected: 2,
      // No audit: nothing said of what the bundles earn.
      expected_held: null,
      held_full_text: 0,
      held_any_form: 1,
    });
    // c: a refusal finds nothing where a bundle was expected; the error row is not scored at all.
    expect(of('c')).toEqual({
      fullText: { avg: 0, all: 0, any: 0 },
      anyForm: { avg: 0, all: 0, any: 0 },
      must_token_share: null,
      first_rank: null,
      acc_at_1: null,
      acc_at_3: null,
      acc_at_5: null,
      file_precision: null,
      mean_tokens: null,
      refusals: 1,
      expected: 1,
      // The refusal earns nothing and holds nothing.
      expected_held: 0,
      held_full_text: 0,
      held_any_form: 0,
    });
  });

  it('says nothing of the full text for rows written before it was measured, and none for a ranking without the files', () => {
    const old = rows.filter((r) => r.strategy === 'a').map((r) => ({ ...r, measures: {} as Measures }));
    expect(localizationOf(old).fullText).toEqual({ avg: null, all: null, any: null });
    expect(localizationOf(old).anyForm.avg).toBe(0.75);
    const missed = rows.filter((r) => r.strategy === 'a').map((r) => ({ ...r, measures: said(0, 0, 0) }));
    expect(localizationOf(missed).first_rank).toBe(Number.POSITIVE_INFINITY);
  });

  it('lead the report of an ingested corpus, and nowhere else', async () => {
    const md = reportMarkdown(rows, 'r', true);
    expect(md.indexOf('## Localization')).toBeGreaterThan(0);
    expect(md.indexOf('## Localization')).toBeLessThan(md.indexOf('## Correct outcomes'));
    expect(md).toMatch(
      /^\| a \| 50\.0% \| 0\.0% \| 100\.0% \| 75\.0% \| 50\.0% \| 100\.0% \| 0\.3000 \| 1 \| 50\.0% \| 50\.0% \| 100\.0% \| 0\.5000 \| 700\.0 \| 0 \|$/m,
    );
    expect(reportMarkdown(rows, 'r')).not.toContain('Localization');
    const html = await reportHtml(rows, 'r', null, true);
    expect(html.indexOf('<section id="localization">')).toBeLessThan(html.indexOf('<section id="headline">'));
    expect(html).toContain('<a href="#localization">');
    expect(await reportHtml(rows, 'r', null)).not.toContain('id="localization"');
  });

  it('fill a findings page one figure at a time, as the paper writes them', () => {
    const run = { rows, compilations: [], purposes: new Map(), candidates: new Map() };
    const page = (t: string) =>
      renderFindings(
        t,
        { rows: [], compilations: [], purposes: new Map(), candidates: new Map() },
        new Map([['r', run]]),
      );
    expect(page('{{found r tight a avg_full_text}} {{found r tight a all_any_form}}')).toBe('50.00 50.00');
    // Against a published 29.58: 50.00 - 29.58.
    expect(page('{{found r tight a avg_full_text minus 29.58}}')).toBe('+20.42');
    expect(page('{{found r tight b avg_any_form minus 30}}')).toBe('-5.00');
    // The side a sentence may state, from the figures as printed: 50.00 against 29.58, 50, 50.004, 60.
    expect(
      ['29.58', '50', '50.004', '60'].map((n) => page(`{{found r tight a avg_full_text side ${n}}}`)),
    ).toEqual(['above', 'level with', 'level with', 'below']);
    expect(
      page('{{found r tight a first_rank}}, {{found r tight a mean_tokens}}, {{found r tight c refusals}}'),
    ).toBe('1, 700, 1');
    for (const bad of [
      '{{found r tight a}}',
      '{{found r tight nobody avg_full_text}}',
      '{{found r tight a no_such}}',
      '{{found r tight a avg_full_text minus x}}',
      '{{found r tight a first_rank minus 1}}',
      '{{found r tight a avg_full_text side x}}',
      '{{found r tight a avg_full_text beside 1}}',
    ])
      expect(() => page(bad), bad).toThrow(/findings: line 1: /);
  });

  it('break down by repository for SWE-bench instances of several, and nowhere else', async () => {
    // a's two cases as instances of two repositories: each line is one case's figures.
    const renamed = (to: Record<string, string>) =>
      rows.filter((r) => r.strategy === 'a').map((r) => ({ ...r, case: to[r.case] as string }));
    const two = renamed({ c1: 'o__y-10', c2: 'o__x-7' });
    const [tight] = repositoryTables(two, ['a']);
    // Repositories in name order: x holds c2 (half whole, ranked by 4), y c1 (half whole, ranked first).
    expect(tight?.table.rows).toEqual([
      ['o__x', 1, 'a', 0.5, 0, 1, 0.5, 0, 1, 0, 0, 1],
      ['o__y', 1, 'a', 0.5, 0, 1, 1, 1, 1, 1, 1, 1],
    ]);
    expect(repositoryTables(renamed({ c1: 'o__y-10', c2: 'o__y-7' }), ['a'])).toEqual([]);
    expect(repositoryTables(renamed({ c1: 'o__y-10', c2: 'commit-abc' }), ['a'])).toEqual([]);
    expect(reportMarkdown(two, 'r', true)).toContain('## Localization by repository');
    expect(reportMarkdown(rows, 'r', true)).not.toContain('by repository');
    expect(await reportHtml(two, 'r', null, true)).toContain('<section id="by-repository">');
    const run = { rows: two, compilations: [], purposes: new Map(), candidates: new Map() };
    const page = (t: string) => renderFindings(t, run, new Map([['r', run]]));
    expect(page('{{localization-by-repository r tight a}}')).toMatch(/^\| o__x \| 1 \| a \| 50\.0% /m);
    expect(() => page('{{localization-by-repository r tight nobody}}')).toThrow(/findings: line 1: /);
    expect(() => page('{{localization-by-repository r tight}}')).toThrow(/findings: line 1: /);
    // A run's name with a repository reads that repository's cases alone.
    expect(page('{{found r@o__y tight a all_any_form}} {{found r@o__x tight a all_any_form}}')).toBe(
      '100.00 0.00',
    );
    expect(page('{r@o__x:*/tight/a.rendered_tokens}')).toBe('500');
    expect(() => page('{{found r@o__z tight a all_any_form}}')).toThrow(/no repository "o__z"/);
  });

  it('print "n/a by design" in the full-text columns of a peer that holds no body by design (Aider\'s map), never 0', () => {
    const asMap = rows.filter((r) => r.strategy === 'a').map((r) => ({ ...r, strategy: 'aider-repomap' }));
    const run = { rows: asMap, compilations: [], purposes: new Map(), candidates: new Map() };
    const page = (t: string) => renderFindings(t, run, new Map([['r', run]]));
    const line = page('{{localization r tight}}')
      .split('\n')
      .find((l) => l.startsWith('| aider-repomap '));
    const cells = (line ?? '').split('|').map((c) => c.trim());
    // Full text (avg, all, any) says so; any form keeps its figures.
    expect(cells.slice(2, 5)).toEqual(['n/a by design', 'n/a by design', 'n/a by design']);
    expect(cells[5]).toMatch(/%$/);
    expect(page('{{found r tight aider-repomap avg_full_text}}')).toBe('n/a by design');
    // Any other strategy on the same rows prints its figure.
    const same = { ...run, rows: rows.filter((r) => r.strategy === 'a') };
    expect(renderFindings('{{found r tight a avg_full_text}}', same, new Map([['r', same]]))).toBe('50.00');
  });

  it("write McNemar's exact p of two strategies' whole files over the cells both hold", () => {
    // Ten cases: a holds the file whole in all ten, b in two; eight discordant cells, all a's:
    // p = 2 * 0.5^8 = 0.0078125. One discordant cell: p = 1.
    const cells = (s: string, whole: number) =>
      Array.from({ length: 10 }, (_, i) =>
        row({
          case: `k${i}`,
          strategy: s,
          must_total: 1,
          must_recall: 1,
          measures: said(i < whole ? 1 : 0, 0, null),
        }),
      );
    const run = {
      rows: [...cells('a', 10), ...cells('b', 2), ...cells('c', 9)],
      compilations: [],
      purposes: new Map(),
      candidates: new Map(),
    };
    const page = (t: string) => renderFindings(t, run, new Map([['r', run]]));
    expect(page('{{mcnemar r tight a b}}')).toBe('p = 0.008');
    expect(page('{{mcnemar r tight a c}}')).toBe('p = 1.00');
    expect(() => page('{{mcnemar r tight a nobody}}')).toThrow(/findings: line 1: .*no rows of nobody/);
  });
});
