/**
 * The section of report.md and report.html that puts the compilers beside the assemblers people
 * ship (issue 20): present when the rows hold at least one peer and `compiler` or `compiler-v2`.
 * From rows alone, through the metric catalogue's `peers` and `peers_budget` tables.
 */
import { figuresOf, rowsOf, statsByStrategy } from '../metrics/index.js';
import type { BudgetName, Row } from '../types.js';
import { ALL_PEERS, BUDGETS } from '../vocabulary.js';
import { strategyTable } from './headline.js';
import type { Table } from './table.js';

const COMPILERS = ['compiler', 'compiler-v2'] as const;

export interface PeersSection {
  readonly title: string;
  readonly prose: string;
  readonly whole: Table;
  readonly budgets: readonly { readonly budget: BudgetName; readonly table: Table }[];
}

/** The compilers then the peers the rows hold, in the rows' order within each; null when either is missing. */
export function peerNames(names: readonly string[]): string[] | null {
  const compilers = names.filter((n) => (COMPILERS as readonly string[]).includes(n));
  const peers = names.filter((n) => (ALL_PEERS as readonly string[]).includes(n));
  return compilers.length > 0 && peers.length > 0 ? [...compilers, ...peers] : null;
}

export function peersSection(rows: readonly Row[], names: readonly string[]): PeersSection | null {
  const shown = peerNames(names);
  if (shown === null) return null;
  const onBudget = (b: BudgetName) => shown.flatMap((n) => rowsOf(rows, n, b));
  return {
    title: 'The compilers against the peers',
    prose:
      'The assemblers people ship, run through their own packages or a port of their published algorithm ' +
      '(docs/peers.md), beside the compilers on the same pools and budgets. Illegal bundles break any legality ' +
      'rule; over budget counts bundles whose rendered tokens exceed the requested budget (Aider accepts 15% ' +
      'over); the six kinds count admitted items breaking each rule; distractor and harmful count items of those ' +
      'ledger classes; must recall is the mean over compilations expected to return a bundle (a refusal scores 0).',
    whole: strategyTable(shown, statsByStrategy(rows, shown), figuresOf('peers')),
    budgets: BUDGETS.filter((b) => rows.some((r) => r.budget === b)).map((budget) => ({
      budget,
      table: strategyTable(shown, statsByStrategy(onBudget(budget), shown), figuresOf('peers_budget')),
    })),
  };
}
