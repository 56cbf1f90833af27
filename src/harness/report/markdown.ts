/**
 * report.md: the book's tables, generated from rows alone. Every table has one row per
 * strategy, starting `| <name> |`.
 */
import { budgetStats, oracleGap, rowsOf, strategiesOf, strategyStats } from '../score/stats.js';
import type { Row, StrategyStats } from '../types.js';
import { BUDGETS, TOKENIZERS, VIOLATION_KINDS } from '../vocabulary.js';
import { exactSection } from './exact.js';
import { fixed, int, signed } from './format.js';
import { markdownTable } from './table.js';

function statusTable(names: readonly string[], stats: ReadonlyMap<string, StrategyStats>): string {
  return markdownTable(
    ['strategy', 'correct outcomes', 'of', 'bundles', 'refusals', 'errors'],
    names.map((n) => {
      const s = stats.get(n) as StrategyStats;
      return [
        n,
        String(s.correct),
        String(s.rows),
        String(s.rows - s.refusals - s.errors),
        String(s.refusals),
        String(s.errors),
      ];
    }),
    ['left', 'right', 'right', 'right', 'right', 'right'],
  );
}

/** The book's column order, each header beside the figure under it. */
const VIOLATION_COLUMNS: readonly (readonly [string, (s: StrategyStats) => number])[] = [
  ['dependency', (s) => s.violations.dependency],
  ['group', (s) => s.violations.group],
  ['floor', (s) => s.violations.floor],
  ['distractor', (s) => s.distractor],
  ['scope', (s) => s.violations.scope],
  ['freshness', (s) => s.violations.freshness],
  ['authority', (s) => s.violations.authority],
  ['illegal', (s) => s.illegal],
  ['harmful', (s) => s.harmful],
];

function violationsTable(names: readonly string[], stats: ReadonlyMap<string, StrategyStats>): string {
  return markdownTable(
    ['strategy', ...VIOLATION_COLUMNS.map(([header]) => header)],
    names.map((n) => {
      const s = stats.get(n) as StrategyStats;
      return [n, ...VIOLATION_COLUMNS.map(([, figure]) => String(figure(s)))];
    }),
    ['left', ...VIOLATION_COLUMNS.map(() => 'right' as const)],
  );
}

/** Each strategy's bundles as real tokenizers count their rendered text. */
function realTokensTable(names: readonly string[], stats: ReadonlyMap<string, StrategyStats>): string {
  return markdownTable(
    ['strategy', 'bundles', ...TOKENIZERS.flatMap((t) => [`declared / real (${t})`, `over budget by ${t}`])],
    names.map((n) => {
      const real = (stats.get(n) as StrategyStats).real_tokens;
      return [
        n,
        int(real.o200k.bundles),
        ...TOKENIZERS.flatMap((t) => [fixed(real[t].declared_to_real, 2), int(real[t].overruns)]),
      ];
    }),
    ['left', 'right', ...TOKENIZERS.flatMap(() => ['right', 'right'] as const)],
  );
}

function headlineTable(names: readonly string[], stats: ReadonlyMap<string, StrategyStats>): string {
  const headers = [
    'strategy',
    'correct',
    'refusals',
    'wrong',
    ...VIOLATION_KINDS,
    'distractor',
    'harmful',
    'must recall (feasible)',
    'should recall',
    'precision',
    'over-admission',
    'under-admission',
    'rendered tokens',
    'budget slack (feasible mean)',
  ];
  return markdownTable(
    headers,
    names.map((n) => {
      const s = stats.get(n) as StrategyStats;
      const v = s.violations;
      return [
        n,
        String(s.correct),
        String(s.refusals),
        String(s.wrong),
        ...[...VIOLATION_KINDS.map((k) => v[k]), s.distractor, s.harmful].map(String),
        fixed(s.must_recall_feasible, 4),
        fixed(s.should_recall, 4),
        fixed(s.precision, 4),
        String(s.over_admission),
        String(s.under_admission),
        int(s.rendered_tokens),
        fixed(s.budget_slack_feasible, 1),
      ];
    }),
    ['left', ...Array(headers.length - 1).fill('right')],
  );
}

function perBudgetTable(rows: readonly Row[], names: readonly string[]): string {
  return markdownTable(
    ['strategy', ...BUDGETS],
    names.map((n) => {
      const b = budgetStats(rows, n);
      return [
        n,
        ...BUDGETS.map((k) => {
          const s = b[k];
          return [
            s.correct,
            s.illegal,
            s.distractor,
            s.harmful,
            fixed(s.must_recall, 4),
            int(s.rendered_tokens),
            s.structural,
          ].join(' / ');
        }),
      ];
    }),
  );
}

function gapTable(rows: readonly Row[], names: readonly string[]): string {
  return markdownTable(
    ['strategy', 'token gap min', 'token gap max', 'token gap mean', 'must gap mean', 'should gap mean'],
    names
      .filter((n) => n !== 'oracle')
      .map((n) => {
        const g = oracleGap(rows, n);
        return [
          n,
          signed(g.token_min),
          signed(g.token_max),
          signed(g.token_mean, 2),
          signed(g.must_mean, 4),
          signed(g.should_mean, 4),
        ];
      }),
    ['left', 'right', 'right', 'right', 'right', 'right'],
  );
}

/** The whole report. `title` names the corpus; nothing in it depends on the clock. */
export function reportMarkdown(rows: readonly Row[], title: string): string {
  const names = strategiesOf(rows);
  const stats = new Map(names.map((n) => [n, strategyStats(rowsOf(rows, n))]));
  const cases = new Set(rows.map((r) => r.case)).size;
  const parts = [
    `# ${title}`,
    `${rows.length} compilations: ${cases} cases x ${BUDGETS.length} budgets x ${names.length} strategies. ` +
      'Generated by `ctxbench report` from rows.jsonl; every number is computed, none is typed in.',
    '## Correct outcomes\n\nA bundle where the manifest expects one, or the expected refusal where it expects one.',
    statusTable(names, stats),
    "## Violations and admissions\n\nSums over each strategy's compilations. Illegal = admitted items failing a hard gate; distractor and harmful are ledger classes.",
    violationsTable(names, stats),
    '## Headline\n\n' +
      'Wrong = an outcome other than the expected one. Must recall is the mean over the compilations expected to ' +
      'return a bundle (a refusal scores 0); should recall and precision are means over every compilation where ' +
      'defined; over- and under-admission and rendered tokens are sums.',
    headlineTable(names, stats),
    '## Per budget\n\nEach cell: correct / illegal / distractor / harmful / must recall (mean, refusals 0) / rendered tokens / dependency + group violations.',
    perBudgetTable(rows, names),
    '## Real token counts\n\n' +
      "Each bundle's rendered text counted by real tokenizers (gpt-tokenizer, offline). Declared / real = the " +
      'rendered cost (declared counts and the word estimate) over the real count, a mean over bundles; over ' +
      'budget = bundles within the budget by the rendered cost but over it by the real count.',
    realTokensTable(names, stats),
  ];
  if (names.includes('exact')) parts.push(...exactSection(rows, names));
  if (names.includes('oracle')) {
    parts.push(
      "## Gap to the oracle\n\nToken gap = rendered tokens minus the oracle's, where both returned a bundle; must and should gaps = the oracle's recall minus the strategy's.",
      gapTable(rows, names),
    );
  }
  return `${parts
    .join('\n\n')
    .replace(/\n{3,}/g, '\n\n')
    .trimEnd()}\n`;
}
