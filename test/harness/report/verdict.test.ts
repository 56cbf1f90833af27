/**
 * The verdict an ingested corpus's report leads with, on hand-made rows whose standings are worked
 * out here: the strategy holding every needed file whole in the most cells leads, a list of paths
 * never does (however many files it finds in any form), ties go to more files held whole, then
 * fewer tokens, and strategies equal on all three are named together by name; the oracle is the
 * ceiling, apart. report.md and report.html lead with it, and only for an ingested corpus.
 */
import { describe, expect, it } from 'vitest';
import { columnOf } from '../../../src/harness/metrics/index.js';
import {
  ingestedHeadline,
  reportHtml,
  reportMarkdown,
  verdictText,
} from '../../../src/harness/report/index.js';
import { verdictOf, verdictTable } from '../../../src/harness/report/verdict.js';
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

describe('the verdict', () => {
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

  it('leads with nobody when no strategy holds a needed file whole', () => {
    const rows = rowsOf({ paths: [[0, 2, 50]], outline: [[0, 1, 400]] });
    const [v] = verdictOf(rows, ['paths', 'outline']);
    expect(v?.leaders).toEqual([]);
    expect(v?.next).toBeNull();
    expect(verdictText(rows, ['paths', 'outline'])).toContain(
      'At tight (1,000 tokens), no strategy holds a needed file in full text in 1 cell.',
    );
  });

  it('ranks by all in full text, then needed files held whole, then fewer tokens; the rest tie, by name', () => {
    const rows = rowsOf({
      // Every file in one case of four: 25%, 2 files.
      one: [
        [2, 2, 100],
        [0, 0, 100],
        [0, 0, 100],
        [0, 0, 100],
      ],
      // 25% too, and one more file whole: 3 files; it beats `one` on the second key.
      more: [
        [2, 2, 800],
        [1, 1, 800],
        [0, 0, 800],
        [0, 0, 800],
      ],
      // What `more` holds, cheaper: it beats `more` on the third key.
      cheap: [
        [2, 2, 500],
        [1, 1, 500],
        [0, 0, 500],
        [0, 0, 500],
      ],
      // Equal to `cheap` on all three: tied with it, and named after it by name.
      also: [
        [1, 1, 500],
        [2, 2, 500],
        [0, 0, 500],
        [0, 0, 500],
      ],
    });
    const [v] = verdictOf(rows, ['one', 'more', 'cheap', 'also']);
    expect(v?.leaders.map((s) => s.name)).toEqual(['also', 'cheap']);
    expect(v?.next?.name).toBe('more');
    const text = verdictText(rows, ['one', 'more', 'cheap', 'also']);
    expect(text).toContain(
      'also and cheap tie: each holds every needed file in full text in 25.0% of 4 cells',
    );
    expect(text).toContain('(3 of 8 needed files in full text), at 500 tokens a bundle.');
    expect(text).toContain('Next: more, 25.0% (3 files), at 800 tokens a bundle.');
    // A share beats files: one case whole of four beats three files spread over three cases.
    const spread = rowsOf({
      spread: [
        [1, 1, 100],
        [1, 1, 100],
        [1, 1, 100],
        [0, 0, 100],
      ],
      one: [
        [2, 2, 100],
        [0, 0, 100],
        [0, 0, 100],
        [0, 0, 100],
      ],
    });
    expect(verdictOf(spread, ['spread', 'one'])[0]?.leaders.map((s) => s.name)).toEqual(['one']);
  });

  it('shows the oracle apart, as the ceiling, even where it holds the most', () => {
    const rows = rowsOf({ oracle: [[2, 2, 200]], topk: [[1, 1, 900]] });
    const [v] = verdictOf(rows, ['oracle', 'topk']);
    expect(v?.leaders.map((s) => s.name)).toEqual(['topk']);
    expect(v?.ceilings.map((s) => s.name)).toEqual(['oracle']);
    const t = verdictTable(v as NonNullable<typeof v>);
    expect(t.headers.slice(0, 2)).toEqual([columnOf('strategy').label, columnOf('standing').label]);
    expect(t.rows.map((r) => r.slice(0, 2))).toEqual([
      ['topk', 'best in full text'],
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
    expect(md).toContain('| whole | best in full text | 100.0% | 2 | 100.0% | 2 | 900.0 |');
    expect(md).toContain('| paths | best in any form | 0.0% | 0 | 100.0% | 2 | 40.0 |');
    expect(md).toContain('| oracle | ceiling (reads the ledger) |');
    expect(reportMarkdown(rows, 'r', false)).not.toContain('## Verdict');
  });

  it('report.html: the verdict section first, its link first', async () => {
    const html = await reportHtml(rows, 'r', null, true);
    expect(html.indexOf('<section id="verdict">')).toBeLessThan(html.indexOf('<section id="localization">'));
    expect(html).toContain('<nav><a href="#verdict">Verdict</a>');
    expect(html).toContain('At tight (1,000 tokens), whole holds every needed file in full text in 100.0%');
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
