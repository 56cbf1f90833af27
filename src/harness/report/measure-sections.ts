/**
 * The field's measures as report sections (docs/formats.md, "Measures"): where the needed
 * content lands, the window, its composition, and prefix stability. report.md and report.html
 * show the same sections after the book's tables, each its heading, its words and its table.
 */
import {
  CACHED_PRICE,
  figuresOf,
  headersOf,
  kindsOf,
  type PrefixFigures,
  type PrefixStability,
  type TableName,
} from '../metrics/index.js';
import type { Row, StrategyStats } from '../types.js';
import { strategyTable } from './headline.js';
import type { Table } from './table.js';

export interface ReportSection {
  /** For anchors and tests. */
  readonly id: string;
  readonly title: string;
  readonly prose: string;
  readonly table: Table;
}

const PROSE: Readonly<
  Record<'placement' | 'window' | 'composition', readonly [title: string, prose: string]>
> = {
  placement: [
    'Where the needed content lands',
    "Means over each strategy's bundles. Must in middle = the share of must tokens in the middle third of the " +
      'rendered tokens (lower is better: long contexts lose the middle); needed at = the mean start of the must ' +
      'and should items as a share of the rendered tokens; nDCG = the rendered order by ledger gain (must 4, ' +
      "should 3, unlabelled 2, distractor 1, harmful 0) at the bundle's length, against the pool's best contents; " +
      'first must RR = 1 / the rank of the first must item (their mean is the MRR).',
  ],
  window: [
    'The window',
    'Useful share = must and should tokens over rendered tokens (a mean over bundles); redundant = tokens of ' +
      'items whose word 4-gram shingles were, four fifths or more, already laid out before them; budget use = ' +
      'rendered tokens over the requested budget (a mean over bundles); overshoot = tokens beyond the budget, summed.',
  ],
  composition: [
    'Composition',
    "The bundles' rendered tokens by what holds them, summed: the frame (header and separators) and each " +
      "requirement class; they add up to the strategy's tokens. summary.json also has them by order role.",
  ],
};

const PREFIX_PROSE =
  "How much of a bundle's rendered text begins exactly as the strategy's bundle before it, in o200k tokens: " +
  'between the budgets of one case (tight to medium, medium to roomy) and between consecutive cases at one ' +
  'budget, over the pairs where both are bundles. Prefix = the mean common prefix; share = its mean share of ' +
  "the later bundle; saving = the share of the later bundles' input cost a prompt cache would save, billing a cached " +
  `token at ${CACHED_PRICE} of the price (no minimum cacheable length applied).`;

function prefixTable(names: readonly string[], prefix: ReadonlyMap<string, PrefixStability>): Table {
  const cells = (f: PrefixFigures | undefined) => [
    f?.pairs ?? 0,
    f?.prefix_tokens ?? null,
    f?.share ?? null,
    f?.saving ?? null,
  ];
  return {
    headers: headersOf('prefix'),
    rows: names.map((n) => [n, ...cells(prefix.get(n)?.budgets), ...cells(prefix.get(n)?.cases)]),
    kinds: kindsOf('prefix'),
  };
}

/**
 * The sections a run has: the three of the row measures when its rows carry them (a run written
 * before them has none), and prefix stability when its compilations were read.
 */
export function measureSections(
  rows: readonly Row[],
  names: readonly string[],
  stats: ReadonlyMap<string, StrategyStats>,
  prefix: ReadonlyMap<string, PrefixStability> | undefined,
): ReportSection[] {
  const measured = rows.some((r) => r.measures)
    ? (Object.keys(PROSE) as (keyof typeof PROSE & TableName)[]).map((id) => ({
        id,
        title: PROSE[id][0],
        prose: PROSE[id][1],
        table: strategyTable(names, stats, figuresOf(id)),
      }))
    : [];
  return prefix === undefined
    ? measured
    : [
        ...measured,
        { id: 'prefix', title: 'Prefix stability', prose: PREFIX_PROSE, table: prefixTable(names, prefix) },
      ];
}
