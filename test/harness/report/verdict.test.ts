/**
 * The verdict an ingested corpus's report leads with, in words and tables, on hand-made rows
 * whose standings are worked out here: a list of paths never leads (however many files it finds
 * in any form); a leader is named with its rate, its 95% Wilson interval and McNemar's p against
 * the next; a tie names every strategy in it and crowns none by tokens; a run of few cells says it
 * cannot separate the strategies; the oracle is the ceiling, apart. report.md and report.html
 * lead with it, and only for an ingested corpus. The figures themselves: metrics/standings.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { columnOf, verdictOf } from '../../../src/harness/metrics/index.js';
import {
  ingestedHeadline,
  reportHtml,
  reportMarkdown,
  verdictText,
} from '../../../src/harness/report/index.js';
import { verdictTable } from '../../../src/harness/report/verdict.js';
import type { Row } from '../../../src/harness/types.js';
import { measures, row } from '../../helpers/rows.js';

/**
 * A strategy's bundle in case `kase` (two needed files): `whole` of them in full text, `any` in
 * any form, `tokens` rendered.
 */
const cell = (strategy: string, kase: string, whole: number, any: number, tokens: number): Row =>
  row({
    case: kase,
    strategy,
    must_total: 2,
    must_recall: any / 2,
    rendered_tokens: tokens,
    measures: measures({ must_sufficient_recall: whole / 2 }),
  });

/** Four cases; each strategy's cells by what they hold (whole, any form) and cost. */
function rowsOf(spec: Record<string, readonly (readonly [number, number, number])[]>): Row[] {
  return Object.entries(spec).flatMap(([s, cells]) =>
    cells.map(([whole, any, tokens], k) => cell(s, `c${k + 1}`, whole, any, tokens)),
  );
}

/** Cases c01, c02, …, one needed file each: `strategy` holds it whole where `whole` says, at `tokens`. */
const oneFile = (strategy: string, n: number, whole: (k: number) => boolean, tokens: number): Row[] =>
  Array.from({ length: n }, (_, k) =>
    row({
      case: `c${String(k + 1).padStart(2, '0')}`,
      strategy,
      must_total: 1,
      must_recall: whole(k) ? 1 : 0,
      rendered_tokens: tokens,
      measures: measures({ must_sufficient_recall: whole(k) ? 1 : 0 }),
    }),
  );

describe('the verdict in words', () => {
  it('a strategy holding only paths cannot lead, however many files it finds in any form', () => {
    const rows = rowsOf({
      // Every needed file, as a path: all in any form, none whole.
      paths: [
        [0, 2, 50],
        [0, 2, 50],
        [0, 2, 50],
        [0, 2, 50],
      ],
      // One case whole, one file of another.
      whole: [
        [2, 2, 900],
        [1, 1, 900],
        [0, 0, 900],
        [0, 0, 900],
      ],
    });
    const [v] = verdictOf(rows, ['paths', 'whole']);
    expect(v?.leaders.map((s) => s.name)).toEqual(['whole']);
    expect(v?.leaders[0]).toMatchObject({ allFullText: 0.25, heldFullText: 3, meanTokens: 900 });
    // The list of paths leads in any form, said apart.
    expect(v?.anyForm).toMatchObject({ name: 'paths', allAnyForm: 1, allFullText: 0, heldFullText: 0 });
    expect(v?.next?.name).toBe('paths');
  });

  it('leads with nobody when no strategy holds every needed file whole', () => {
    const rows = rowsOf({ paths: [[0, 2, 50]], outline: [[0, 1, 400]] });
    const [v] = verdictOf(rows, ['paths', 'outline']);
    expect(v?.leaders).toEqual([]);
    expect(v?.next).toBeNull();
    expect(verdictText(rows, ['paths', 'outline'])).toContain(
      'At tight (1,000 tokens), no strategy holds every needed file in full text in any of 1 cell.',
    );
  });

  it('a leader: its rate with the Wilson interval, and McNemar against the next with p', () => {
    // 30 cases: `best` whole in 24, `other` in 12, all of them among best's: 12 cells to 0.
    const rows = [...oneFile('best', 30, (k) => k < 24, 800), ...oneFile('other', 30, (k) => k < 12, 700)];
    const text = verdictText(rows, ['best', 'other']);
    const v = verdictOf(rows, ['best', 'other'])[0] as NonNullable<ReturnType<typeof verdictOf>[0]>;
    // The interval's values are metrics/standings.test.ts's to check: here, how they are written.
    const [lo, hi] = [v.leaders[0]?.whole.low as number, v.leaders[0]?.whole.high as number];
    expect(text).toContain(
      `At tight (1,000 tokens), best leads: it holds every needed file in full text in 80.0% of 30 cells ` +
        `(95% interval ${(100 * lo).toFixed(1)}% to ${(100 * hi).toFixed(1)}%), 24 of 30 needed files in full text, at 800 tokens a bundle.`,
    );
    // 2 / 2^12 = 0.000488…
    expect(text).toContain(
      "Next: other, 40.0%, at 700 tokens a bundle; below the top by McNemar's exact test over the 30 cells " +
        'both hold: every needed file whole for best alone in 12, for other alone in 0, p = 0.0005.',
    );
    const t = verdictTable(
      verdictOf(rows, ['best', 'other'])[0] as NonNullable<ReturnType<typeof verdictOf>[0]>,
    );
    const col = (name: string) => t.headers.indexOf(columnOf(name).label);
    expect(t.rows.map((r) => [r[0], r[1]])).toEqual([
      ['best', 'leader'],
      ['other', 'next'],
    ]);
    expect(t.rows[0]?.[col('p_top')]).toBeNull();
    expect(t.rows[1]?.[col('p_top')]).toBeCloseTo(2 / 4096, 12);
    expect(t.rows[0]?.[col('whole_low')]).toBeCloseTo(lo, 12);
  });

  it('a tie names every strategy in it and crowns none by tokens', () => {
    // Nine instances, the cheapest among those tied at 8 of 9 the one a user saw crowned.
    const rows = [
      ...oneFile('tiered', 9, (k) => k < 8, 200),
      ...oneFile('topk', 9, (k) => k < 8, 9000),
      ...oneFile('bm25', 9, (k) => k < 7, 8000),
    ];
    const text = verdictText(rows, ['tiered', 'topk', 'bm25']);
    expect(text).not.toMatch(/tiered leads|topk leads/);
    expect(text).toContain(
      'At tight (1,000 tokens), no strategy leads: tiered, topk and bm25 tie, as no strategy at the top is ahead of them at p < 0.05. ' +
        'At the top, tiered and topk each hold every needed file in full text in 88.9% of 9 cells',
    );
    // One cell differs: 2 P(X <= 0), n 1, capped at 1.
    expect(text).toContain(
      "Next: bm25, 77.8%, at 8,000 tokens a bundle; within chance of the top by McNemar's exact test over the 9 cells " +
        'both hold: every needed file whole for tiered alone in 1, for bm25 alone in 0, p = 1.0000; ' +
        '1 cell differs, fewer than the 6 any significant difference needs.',
    );
  });

  it('a run of few cells says that it cannot separate the strategies', () => {
    const rows = [...oneFile('a', 3, () => true, 100), ...oneFile('b', 3, () => false, 100)];
    expect(verdictText(rows, ['a', 'b'])).toContain(
      "At tight (1,000 tokens), 3 cells cannot separate the strategies: McNemar's exact test needs at least 6 cells " +
        'where two strategies differ to reach p < 0.05. Highest, every needed file in full text: a, 100.0% of 3 cells',
    );
    // The test against the next is still given, and said to be within chance.
    expect(verdictText(rows, ['a', 'b'])).toContain(
      "Next: b, 0.0%, at 100 tokens a bundle; within chance of the top by McNemar's exact test over the 3 cells " +
        'both hold: every needed file whole for a alone in 3, for b alone in 0, p = 0.2500; 3 cells differ, ' +
        'fewer than the 6 any significant difference needs.',
    );
  });

  it('shows the oracle apart, as the ceiling, even where it holds the most', () => {
    const rows = rowsOf({ oracle: [[2, 2, 200]], topk: [[2, 2, 900]] });
    const [v] = verdictOf(rows, ['oracle', 'topk']);
    expect(v?.ceilings.map((s) => s.name)).toEqual(['oracle']);
    const t = verdictTable(v as NonNullable<typeof v>);
    expect(t.headers.slice(0, 2)).toEqual([columnOf('strategy').label, columnOf('standing').label]);
    expect(t.rows.map((r) => r.slice(0, 2))).toEqual([
      ['topk', 'highest (cannot separate)'],
      ['oracle', 'ceiling (reads the ledger)'],
    ]);
  });

  it('is computed per budget, over the cells where a bundle is expected', () => {
    const rows = [
      ...rowsOf({ a: [[2, 2, 100]], b: [[0, 2, 10]] }),
      ...rowsOf({ a: [[0, 2, 100]], b: [[2, 2, 300]] }).map((r) => ({ ...r, budget: 'roomy' as const })),
      // A refusal expected: not a cell the verdict counts.
      { ...cell('a', 'c2', 0, 0, 0), expected: { success: false, reason: 'INSUFFICIENT_BUDGET' } },
    ];
    const v = verdictOf(rows, ['a', 'b']);
    expect(v.map((x) => [x.budget, x.cells, x.needed, x.leaders.map((s) => s.name)])).toEqual([
      ['tight', 1, 2, ['a']],
      ['roomy', 1, 2, ['b']],
    ]);
  });
});

describe('the reports of an ingested corpus lead with it', () => {
  const rows = rowsOf({ oracle: [[2, 2, 200]], paths: [[0, 2, 40]], whole: [[2, 2, 900]] });

  it('report.md: the verdict first, then the localization measures; none for another corpus', () => {
    const md = reportMarkdown(rows, 'r', true);
    const at = (s: string) => md.indexOf(s);
    expect(at('## Verdict')).toBeGreaterThan(0);
    expect(at('## Verdict')).toBeLessThan(at('## Localization'));
    expect(at('## Localization')).toBeLessThan(at('## Correct outcomes'));
    expect(md).toContain(
      '| whole | highest (cannot separate) | 100.0% | 20.7% | 100.0% | - | 2 | 100.0% | 2 | 900.0 |',
    );
    expect(md).toContain(
      '| paths | best in any form | 0.0% | 0.0% | 79.3% | 1.0000 | 0 | 100.0% | 2 | 40.0 |',
    );
    expect(md).toContain('| oracle | ceiling (reads the ledger) |');
    expect(reportMarkdown(rows, 'r', false)).not.toContain('## Verdict');
  });

  it("report.html: the verdict section first after the chart of every needed file, its link after that chart's", async () => {
    const html = await reportHtml(rows, 'r', null, true);
    expect(html.indexOf('<section id="found">')).toBeLessThan(html.indexOf('<section id="verdict">'));
    expect(html.indexOf('<section id="verdict">')).toBeLessThan(html.indexOf('<section id="localization">'));
    expect(html).toContain('<nav><a href="#found">Found</a><a href="#verdict">Verdict</a>');
    expect(html).toContain('At tight (1,000 tokens), 1 cell cannot separate the strategies');
    expect(await reportHtml(rows, 'r', null, false)).not.toContain('id="verdict"');
  });

  it('the terminal headline holds the file recall in full text and in any form', () => {
    const t = ingestedHeadline(rows, ['oracle', 'paths', 'whole']);
    const col = (name: string) => t.headers.indexOf(columnOf(name).label);
    expect(col('all_full_text')).toBeGreaterThan(0);
    expect(col('all_any_form')).toBeGreaterThan(0);
    expect(t.rows.map((r) => [r[0], r[col('all_full_text')], r[col('all_any_form')]])).toEqual([
      ['oracle', 1, 1],
      ['paths', 0, 1],
      ['whole', 1, 1],
    ]);
  });
});
