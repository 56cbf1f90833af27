/**
 * report.md: the book's tables, generated from rows alone. Every table has one row per
 * strategy, starting `| <name> |`.
 */
import {
  budgetStats,
  CACHED_PRICE,
  figuresOf,
  oracleGap,
  type PrefixFigures,
  type PrefixStability,
  statsByStrategy,
  strategiesOf,
  type TableName,
} from '../score/index.js';
import type { Row, StrategyStats } from '../types.js';
import { BUDGETS } from '../vocabulary.js';
import { exactSection } from './exact.js';
import { count, DIGITS, fixed, int } from './format.js';
import { strategyTable } from './headline.js';
import { LOCALIZATION_PROSE, localizationTables } from './localization.js';
import { peersSection } from './peers.js';
import { markdownTable, renderTable } from './table.js';

const perStrategy = (
  names: readonly string[],
  stats: ReadonlyMap<string, StrategyStats>,
  table: TableName,
): string => renderTable(strategyTable(names, stats, figuresOf(table)), 'md');

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
            int(s.correct),
            int(s.illegal),
            int(s.distractor),
            int(s.harmful),
            fixed(s.must_recall, DIGITS.score),
            int(s.rendered_tokens),
            int(s.structural),
          ].join(' / ');
        }),
      ];
    }),
  );
}

function gapTable(rows: readonly Row[], names: readonly string[]): string {
  return renderTable(
    {
      headers: [
        'strategy',
        'token gap min',
        'token gap max',
        'token gap mean',
        'must gap mean',
        'should gap mean',
      ],
      rows: names
        .filter((n) => n !== 'oracle')
        .map((n) => {
          const g = oracleGap(rows, n);
          return [n, g.token_min, g.token_max, g.token_mean, g.must_mean, g.should_mean];
        }),
      kinds: [undefined, 'count', 'count', 'mean', 'score', 'score'],
      signed: [false, true, true, true, true, true],
    },
    'md',
  );
}

/** The field's measures (docs/formats.md, "Measures"), after the book's tables. */
const measureSections = (names: readonly string[], stats: ReadonlyMap<string, StrategyStats>): string[] => [
  '## Where the needed content lands\n\n' +
    "Means over each strategy's bundles. Must in middle = the share of must tokens in the middle third of the " +
    'rendered tokens (lower is better: long contexts lose the middle); needed at = the mean start of the must ' +
    'and should items as a share of the rendered tokens; nDCG = the rendered order by ledger gain (must 4, ' +
    "should 3, unlabelled 2, distractor 1, harmful 0) at the bundle's length, against the pool's best contents; " +
    'first must RR = 1 / the rank of the first must item (their mean is the MRR).',
  perStrategy(names, stats, 'placement'),
  '## The window\n\n' +
    'Useful share = must and should tokens over rendered tokens (a mean over bundles); redundant = tokens of ' +
    'items whose word 4-gram shingles were, four fifths or more, already laid out before them; budget use = ' +
    'rendered tokens over the requested budget (a mean over bundles); overshoot = tokens beyond the budget, summed.',
  perStrategy(names, stats, 'window'),
  '## Composition\n\n' +
    "The bundles' rendered tokens by what holds them, summed: the frame (header and separators) and each " +
    "requirement class; they add up to the strategy's tokens. summary.json also has them by order role.",
  perStrategy(names, stats, 'composition'),
];

/** Prefix stability (score/prefix.ts): what a provider's prompt cache could reuse. */
const prefixSection = (names: readonly string[], prefix: ReadonlyMap<string, PrefixStability>): string[] => [
  '## Prefix stability\n\n' +
    "How much of a bundle's rendered text begins exactly as the strategy's bundle before it, in o200k tokens: " +
    'between the budgets of one case (tight to medium, medium to roomy) and between consecutive cases at one ' +
    'budget, over the pairs where both are bundles. Prefix = the mean common prefix; share = its mean share of ' +
    `the later bundle; saving = the share of the later bundles' input cost a prompt cache would save, billing a cached ` +
    `token at ${CACHED_PRICE} of the price (no minimum cacheable length applied).`,
  renderTable(
    {
      headers: [
        'strategy',
        'budget pairs',
        'prefix',
        'share',
        'saving',
        'case pairs',
        'prefix',
        'share',
        'saving',
      ],
      rows: names.map((n) => {
        const p = prefix.get(n);
        const cells = (f: PrefixFigures | undefined) => [
          f?.pairs ?? 0,
          f?.prefix_tokens ?? null,
          f?.share ?? null,
          f?.saving ?? null,
        ];
        return [n, ...cells(p?.budgets), ...cells(p?.cases)];
      }),
      kinds: [undefined, 'count', 'mean', 'score', 'score', 'count', 'mean', 'score', 'score'],
    },
    'md',
  ),
];

/**
 * The whole report. `title` names the corpus; nothing in it depends on the clock. A report of an
 * ingested corpus leads with the localization measures.
 */
export function reportMarkdown(
  rows: readonly Row[],
  title: string,
  ingested = false,
  prefix?: ReadonlyMap<string, PrefixStability>,
): string {
  const names = strategiesOf(rows);
  const stats = statsByStrategy(rows, names);
  const cases = new Set(rows.map((r) => r.case)).size;
  const parts = [
    `# ${title}`,
    `${count(rows.length, 'compilation')}: ${count(cases, 'case')} x ${BUDGETS.length} budgets x ${count(names.length, 'strategy')}. ` +
      'Generated by `ctxbench report` from rows.jsonl; every number is computed, none is typed in.',
    ...(ingested
      ? [
          `## Localization\n\n${LOCALIZATION_PROSE}`,
          ...localizationTables(rows, names).flatMap(({ budget, table }) => [
            `### ${budget}`,
            renderTable(table, 'md'),
          ]),
        ]
      : []),
    '## Correct outcomes\n\nA bundle where the manifest expects one, or the expected refusal where it expects one.',
    perStrategy(names, stats, 'outcomes'),
    "## Violations and admissions\n\nSums over each strategy's compilations. Illegal = admitted items failing a hard gate; distractor and harmful are ledger classes.",
    perStrategy(names, stats, 'violations'),
    '## Headline\n\n' +
      'Wrong = an outcome other than the expected one. Must recall is the mean over the compilations expected to ' +
      'return a bundle (a refusal scores 0); should recall and precision are means over every compilation where ' +
      'defined; over- and under-admission and rendered tokens are sums.',
    perStrategy(names, stats, 'summary'),
    '## Per budget\n\nEach cell: correct / illegal / distractor / harmful / must recall (mean, refusals 0) / rendered tokens / dependency + group violations.',
    perBudgetTable(rows, names),
    '## Real token counts\n\n' +
      "Each bundle's rendered text counted by real tokenizers (gpt-tokenizer, offline). Declared / real = the " +
      'rendered cost (declared counts and the word estimate) over the real count, a mean over bundles; over ' +
      'budget = bundles within the budget by the rendered cost but over it by the real count.',
    perStrategy(names, stats, 'real_tokens'),
  ];
  const peers = peersSection(rows, names);
  if (peers !== null) {
    parts.push(`## ${peers.title}\n\n${peers.prose}`, renderTable(peers.whole, 'md'));
    for (const { budget, table } of peers.budgets) parts.push(`### ${budget}`, renderTable(table, 'md'));
  }
  if (names.includes('exact')) parts.push(...exactSection(rows, names));
  if (names.includes('oracle')) {
    parts.push(
      "## Gap to the oracle\n\nToken gap = rendered tokens minus the oracle's, where both returned a bundle; must and should gaps = the oracle's recall minus the strategy's.",
      gapTable(rows, names),
    );
  }
  // Runs written before the measures existed have none: their report ends as it did.
  if (rows.some((r) => r.measures)) parts.push(...measureSections(names, stats));
  if (prefix !== undefined) parts.push(...prefixSection(names, prefix));
  return `${parts
    .join('\n\n')
    .replace(/\n{3,}/g, '\n\n')
    .trimEnd()}\n`;
}
