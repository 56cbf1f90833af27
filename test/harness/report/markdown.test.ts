import { afterEach, describe, expect, it, vi } from 'vitest';
import { reportMarkdown } from '../../../src/harness/report/index.js';
import { markdownTable, textTable } from '../../../src/harness/report/table.js';
import type { Audit, Row } from '../../../src/harness/types.js';
import { STRATEGY_ERROR, VIOLATION_KINDS } from '../../../src/harness/vocabulary.js';
import {
  countOf,
  illegalBundle,
  overBudget,
  PEER_ORDER,
  PEER_ROWS,
  PEERS_HELD,
} from '../../helpers/peer-rows.js';
import { row as baseRow } from '../../helpers/rows.js';

/** The shared row factory, under this file's default strategy name. */
const row = (over: Partial<Row> = {}): Row => baseRow({ strategy: 'alpha', ...over });
const refusal = (reason: string, over: Partial<Row> = {}) =>
  row({ success: false, reason, budget_slack: null, must_recall: 0, should_recall: 0, ...over });

/** alpha: a bundle with every violation count distinct, a false refusal, a bundle, an error row. */
const ALPHA = [
  row({
    rendered_tokens: 5_318_000,
    should_recall: 0.5,
    budget_slack: 12,
    ...{ dependency_violations: 1, group_violations: 2, floor_violations: 3, distractor_admission: 4 },
    ...{ scope_violations: 5, freshness_violations: 6, authority_violations: 7, illegal_admission: 8 },
    ...{ harmful_admission: 9, over_admission: 2, under_admission: 1 },
  }),
  refusal('INSUFFICIENT_BUDGET', { budget: 'medium', status_correct: false, under_admission: 3 }),
  row({ budget: 'roomy', rendered_tokens: 541, must_recall: 0.5, should_recall: null, precision: 0.5 }),
  refusal(STRATEGY_ERROR, {
    case: 'c2',
    ...{ status_correct: null, must_recall: null, should_recall: null },
  }),
];
const BETA = [row({ strategy: 'beta', rendered_tokens: 120, must_recall: 0.5, should_recall: 0.5 })];

const linesOf = (report: string, name: string) =>
  report.split('\n').filter((l) => l.startsWith(`| ${name} |`));

describe('reportMarkdown: tables from rows alone', () => {
  const report = reportMarkdown([...ALPHA, ...BETA], 'Study report: hand-made');

  it('gives every strategy one row in each per-strategy table, starting `| <name> |`', () => {
    expect(report.startsWith('# Study report: hand-made\n')).toBe(true);
    expect(report).toContain('5 compilations: 2 cases x 3 budgets x 2 strategies.');
    // One of each reads as one, not as "1 cases".
    expect(reportMarkdown(BETA, 'one')).toContain('1 compilation: 1 case x 3 budgets x 1 strategy.');
    // status, violations, headline, per budget, real tokens; no exact or oracle section
    expect(linesOf(report, 'alpha')).toHaveLength(5);
    expect(linesOf(report, 'beta')).toHaveLength(5);
    expect(report).not.toContain('## Gap to the oracle');
    expect(report).not.toContain('`exact`');
  });

  it('counts outcomes: correct of rows, bundles, refusals, errors', () => {
    expect(linesOf(report, 'alpha')[0]).toBe('| alpha | 2 | 4 | 2 | 1 | 1 |');
  });

  it("puts each violation under its own header, in the book's order", () => {
    expect(report).toContain(
      '| strategy | dependency | group | floor | distractor | scope | freshness | authority | illegal | harmful |',
    );
    expect(linesOf(report, 'alpha')[1]).toBe('| alpha | 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9 |');
  });

  it('formats the headline: four-digit means, thousands separators, one-digit slack', () => {
    // must (1 + 0 + 0.5) / 3; should (0.5 + 0) / 2 (roomy's null skipped); precision (1 + 1 + 0.5) / 3;
    // tokens 5,318,000 + 541; slack over the feasible bundles only: (12 + 0) / 2
    expect(linesOf(report, 'alpha')[2]).toBe(
      '| alpha | 2 | 1 | 1 | 5 | 6 | 7 | 3 | 1 | 2 | 4 | 9 | 0.5000 | 0.2500 | 0.8333 | 2 | 4 | 5,318,541 | 6.0 |',
    );
  });

  it('per budget: correct / illegal / distractor / harmful / must / tokens / dependency + group', () => {
    expect(linesOf(report, 'alpha')[3]).toBe(
      '| alpha | 1 / 8 / 4 / 9 / 1.0000 / 5,318,000 / 3 | 0 / 0 / 0 / 0 / 0.0000 / 0 / 0 | 1 / 0 / 0 / 0 / 0.5000 / 541 / 0 |',
    );
    // beta has no medium or roomy rows: a mean of nothing prints as '-'
    expect(linesOf(report, 'beta')[3]).toBe(
      '| beta | 1 / 0 / 0 / 0 / 0.5000 / 120 / 0 | 0 / 0 / 0 / 0 / - / 0 / 0 | 0 / 0 / 0 / 0 / - / 0 / 0 |',
    );
  });
});

describe('reportMarkdown: determinism', () => {
  afterEach(() => vi.useRealTimers());

  it('is identical for identical rows, whatever the clock says', () => {
    const rows = [...ALPHA, ...BETA];
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2001-02-03T04:05:06Z'));
    const first = reportMarkdown(rows, 't');
    vi.setSystemTime(new Date('2031-12-30T23:59:59Z'));
    expect(reportMarkdown(structuredClone(rows), 't')).toBe(first);
    expect(first).not.toMatch(/20(01|31)|\d\d:\d\d/);
    expect(first.endsWith('|\n')).toBe(true);
    expect(first).not.toMatch(/\n\n\n/);
  });
});

describe('reportMarkdown: the oracle gap section', () => {
  const oracle = (over: Partial<Row>) => row({ strategy: 'oracle', ...over });
  const rows = [
    ...BETA,
    row({ strategy: 'beta', budget: 'medium', rendered_tokens: 90, must_recall: 1, should_recall: 0 }),
    oracle({ rendered_tokens: 100, must_recall: 1, should_recall: 1 }),
    oracle({ budget: 'medium', rendered_tokens: 150, must_recall: 1, should_recall: 1 }),
  ];
  const report = reportMarkdown(rows, 't');

  it('appears with an oracle, one signed row per other strategy', () => {
    expect(report).toContain('## Gap to the oracle');
    // tokens 120 - 100 = +20 and 90 - 150 = -60; must gaps 0.5, 0; should gaps 0.5, 1
    expect(linesOf(report, 'beta').at(-1)).toBe('| beta | -60 | +20 | -20.0 | +0.2500 | +0.7500 |');
    expect(linesOf(report, 'oracle')).toHaveLength(5); // not a row of its own gap table
  });
});

describe('reportMarkdown: the section against exact', () => {
  const exact = (over: Partial<Row>) => row({ strategy: 'exact', ...over });
  const rows = [
    refusal('INSUFFICIENT_BUDGET', { strategy: 'beta' }),
    exact({ rendered_tokens: 321 }),
    refusal('NO_LEGAL_REPRESENTATION', { strategy: 'beta', budget: 'medium' }),
    refusal('NO_LEGAL_REPRESENTATION', { strategy: 'exact', budget: 'medium' }),
    refusal('INSUFFICIENT_BUDGET', { strategy: 'beta', budget: 'roomy' }),
    refusal('SEARCH_LIMIT', { strategy: 'exact', budget: 'roomy' }),
  ];

  it('names what exact found in every refused cell', () => {
    const report = reportMarkdown(rows, 't');
    expect(report).toContain('## Refusals: did a legal bundle exist?');
    expect(report).toContain('| c1 | tight | beta (INSUFFICIENT_BUDGET) | yes: exact found 321 tokens |');
    expect(report).toContain(
      '| c1 | medium | beta (NO_LEGAL_REPRESENTATION), exact (NO_LEGAL_REPRESENTATION) | no: certified NO_LEGAL_REPRESENTATION |',
    );
    expect(report).toContain(
      '| c1 | roomy | beta (INSUFFICIENT_BUDGET), exact (SEARCH_LIMIT) | unknown (search limit) |',
    );
  });

  it('counts false refusals, silent omissions, illegal bundles and objective gaps per strategy', () => {
    const audit = (preferred: number, discretionary: number, cost: number, over: Partial<Audit> = {}) => ({
      audit: {
        legal: true,
        missing_required: [],
        objective: { preferred, discretionary, rendered_cost: cost },
        ...over,
      },
    });
    const beta = (over: Partial<Row>) => row({ strategy: 'beta', ...over });
    const report = reportMarkdown(
      [
        beta(audit(1.5, 0.5, 110, { legal: false, missing_required: ['m1'] })),
        exact(audit(2, 1, 100)),
        beta({ case: 'c2', ...audit(1, 0.25, 40) }),
        exact({ case: 'c2', ...audit(1, 0, 50), extras: { proven_optimal: false } }),
        refusal('INSUFFICIENT_BUDGET', { strategy: 'beta', budget: 'medium' }), // false: exact found one
        exact({ budget: 'medium', ...audit(0, 0, 10) }),
        refusal('INSUFFICIENT_BUDGET', { strategy: 'beta', budget: 'roomy' }), // true: exact refused too
        refusal('NO_LEGAL_REPRESENTATION', { strategy: 'exact', budget: 'roomy' }),
        refusal(STRATEGY_ERROR, { strategy: 'beta', case: 'c2', budget: 'medium' }), // not counted
      ],
      't',
    );
    // refusals 2, false 1, silent 1, illegal 1; preferred gaps (2 - 1.5, 1 - 1) -> +0.25;
    // discretionary (1 - 0.5, 0 - 0.25) -> +0.125; tokens (110 - 100, 40 - 50) -> 0; compared 2
    expect(linesOf(report, 'beta').at(-1)).toBe('| beta | 2 | 1 | 1 | 1 | +0.2500 | +0.1250 | 0.0 | 2 |');
    expect(report).toContain('Exact bundles not proven optimal (node limit): 1 of 3.');
    expect(linesOf(report, 'exact')).toHaveLength(5); // no row of its own against itself
  });

  it('is absent without an exact strategy, even where others refused', () => {
    const report = reportMarkdown(
      rows.filter((r) => r.strategy !== 'exact'),
      't',
    );
    expect(report).not.toContain('## Refusals');
    expect(report).not.toContain('## Against the optimum');
  });
});

describe('tables', () => {
  it('markdownTable: `| a | b |` lines, a `---:` rule for right-aligned columns', () => {
    expect(markdownTable(['name', 'n'], [['x', '12']], ['left', 'right'])).toBe(
      '| name | n |\n| --- | ---: |\n| x | 12 |\n',
    );
    expect(markdownTable(['a', 'b'], [])).toBe('| a | b |\n| --- | --- |\n');
  });

  it('textTable: right-aligned columns padded on the left, left-aligned on the right', () => {
    expect(
      textTable(
        ['name', 'n'],
        [
          ['alpha', '5'],
          ['b', '123'],
        ],
        ['left', 'right'],
      ),
    ).toBe('name     n\n-----  ---\nalpha    5\nb      123\n');
    // a left-aligned last column leaves no trailing spaces
    expect(textTable(['k', 'v'], [['aaa', 'xx']])).toBe('k    v\n---  --\naaa  xx\n');
  });
});

describe('reportMarkdown: real token counts', () => {
  it('one row per strategy: bundles, the mean declared-to-real ratio and the overruns per tokenizer', () => {
    const audit = {
      legal: true,
      missing_required: [],
      objective: { preferred: 0, discretionary: 0, rendered_cost: 0 },
    };
    const report = reportMarkdown(
      [
        row({
          strategy: 'alpha',
          rendered_tokens: 90,
          budget_tokens: 100,
          audit: { ...audit, real_tokens: { o200k: 60, cl100k: 120 } },
        }),
        row({
          strategy: 'alpha',
          case: 'c2',
          rendered_tokens: 50,
          budget_tokens: 100,
          audit: { ...audit, real_tokens: { o200k: 40, cl100k: 50 } },
        }),
      ],
      't',
    );
    // o200k: (90/60 + 50/40) / 2 = 1.375, no overrun; cl100k: (90/120 + 50/50) / 2 = 0.875, one overrun (120 > 100)
    expect(linesOf(report, 'alpha').at(-1)).toBe('| alpha | 2 | 1.38 | 0 | 0.88 | 1 |');
  });
});

describe('reportMarkdown: the compilers against the peers', () => {
  const TITLE = '## The compilers against the peers';
  /** Every Markdown table of a text: its header cells and its body rows' cells. */
  const tables = (text: string) => {
    const out: { headers: string[]; rows: string[][] }[] = [];
    let block: string[][] = [];
    for (const line of [...text.split('\n'), '']) {
      if (line.startsWith('| ')) block.push(line.slice(2, -2).split(' | '));
      else if (block.length > 0) {
        out.push({ headers: block[0] as string[], rows: block.slice(2) });
        block = [];
      }
    }
    return out;
  };
  /** The section: from its title to the next `## ` heading, or null when the report has none. */
  const sectionOf = (report: string): string | null => {
    const start = report.indexOf(`${TITLE}\n`);
    if (start < 0) return null;
    const next = report.indexOf('\n## ', start + TITLE.length);
    return report.slice(start, next < 0 ? undefined : next);
  };

  it('is present with a compiler and a peer: compilers first, then peers, each in the rows order', () => {
    const section = sectionOf(reportMarkdown(PEER_ROWS, 't'));
    expect(section).not.toBeNull();
    const whole = tables(section as string)[0];
    // compilers in the order they first appear in the rows, then the peers the same way; no alpha
    const compilers = PEER_ORDER.filter((n) => n.startsWith('compiler'));
    const peers = PEER_ORDER.filter((n) => PEERS_HELD.includes(n));
    expect(whole?.rows.map((r) => r[0])).toEqual([...compilers, ...peers]);
    expect(whole?.rows.map((r) => r[0])).toEqual(['compiler-v2', 'compiler', 'aider-repomap', 'prompt-tsx']);
  });

  it('counts over budget and illegal bundles in each cell from the rows', () => {
    const whole = tables(sectionOf(reportMarkdown(PEER_ROWS, 't')) as string)[0];
    const col = (label: string) => whole?.headers.indexOf(label) ?? -1;
    expect(col('over budget')).toBeGreaterThan(0);
    expect(col('illegal bundles')).toBeGreaterThan(0);
    const seen = new Set<string>();
    for (const line of whole?.rows ?? []) {
      const mine = PEER_ROWS.filter((r) => r.strategy === line[0]);
      expect(line[col('over budget')], line[0]).toBe(String(countOf(mine, overBudget)));
      expect(line[col('illegal bundles')], line[0]).toBe(String(countOf(mine, illegalBundle)));
      seen.add(`${line[col('over budget')]}/${line[col('illegal bundles')]}`);
    }
    // the strategies' counts differ, so a row under another's name could not pass
    expect(seen.size).toBe(4);
    // the whole-run table shows each kind of violation apart, and the errors
    for (const kind of [...VIOLATION_KINDS, 'errors']) expect(whole?.headers, kind).toContain(kind);
  });

  it('has a table per budget the rows hold, each counted over that budget alone', () => {
    const section = sectionOf(reportMarkdown(PEER_ROWS, 't')) as string;
    const present = [...new Set(PEER_ROWS.map((r) => r.budget))];
    expect(present).toEqual(['tight', 'medium']);
    expect(section).not.toContain('### roomy');
    const all = tables(section);
    expect(all).toHaveLength(1 + present.length);
    for (const [k, budget] of present.entries()) {
      const at = section.indexOf(`### ${budget}\n`);
      expect(at, budget).toBeGreaterThan(0);
      // the table under the heading is the (k + 1)-th of the section
      expect(tables(section.slice(at))[0]).toEqual(all[k + 1]);
      const t = all[k + 1];
      const col = t?.headers.indexOf('over budget') ?? -1;
      expect(col).toBeGreaterThan(0);
      expect(t?.rows.map((r) => r[0])).toEqual(['compiler-v2', 'compiler', 'aider-repomap', 'prompt-tsx']);
      for (const line of t?.rows ?? []) {
        const mine = PEER_ROWS.filter((r) => r.strategy === line[0] && r.budget === budget);
        expect(line[col], `${budget} ${line[0]}`).toBe(String(countOf(mine, overBudget)));
      }
    }
  });

  it('is absent with peers but no compiler, and with compilers but no peer', () => {
    const noCompiler = PEER_ROWS.filter((r) => !r.strategy.startsWith('compiler'));
    const noPeer = PEER_ROWS.filter((r) => !PEERS_HELD.includes(r.strategy));
    for (const rows of [noCompiler, noPeer]) {
      const report = reportMarkdown(rows, 't');
      expect(sectionOf(report)).toBeNull();
      expect(report).not.toContain('against the peers');
    }
    // one compiler and one peer are enough
    const pair = PEER_ROWS.filter((r) => r.strategy === 'compiler' || r.strategy === 'prompt-tsx');
    expect(sectionOf(reportMarkdown(pair, 't'))).not.toBeNull();
  });
});
