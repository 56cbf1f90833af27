/**
 * Hand-made rows for the section of the compilers against the peers (report.md, report.html),
 * and the counts a test computes from them itself.
 */
import type { Row } from '../../src/harness/types.js';
import { STRATEGY_ERROR } from '../../src/harness/vocabulary.js';
import { row } from './rows.js';

const legality = (legal: boolean): Partial<Row> => ({
  audit: {
    legal,
    missing_required: legal ? [] : ['m1'],
    objective: { preferred: 0, discretionary: 0, rendered_cost: 0 },
  },
});

/** The strategies of PEER_ROWS in the rows' order: a peer, another strategy, compiler-v2, a peer, compiler. */
export const PEER_ORDER = ['aider-repomap', 'alpha', 'compiler-v2', 'prompt-tsx', 'compiler'];
/** The two peers of PEER_ROWS. */
export const PEERS_HELD = ['aider-repomap', 'prompt-tsx'];
/** How many of its cells each strategy of PEER_ORDER is over budget in: all different. */
const OVER = [4, 5, 1, 2, 3];

/**
 * Three cases at tight and medium (no roomy row anywhere) for each strategy of PEER_ORDER.
 * Strategy i is over budget in its first OVER[i] cells and illegal where (cell + i) % 3 is 0;
 * compiler refuses one cell and prompt-tsx errs in one.
 */
export const PEER_ROWS: Row[] = PEER_ORDER.flatMap((strategy, i) =>
  ['c1', 'c2', 'c3']
    .flatMap((kase) => (['tight', 'medium'] as const).map((budget) => ({ case: kase, budget })))
    .map((cell, j) => {
      const at = { strategy, ...cell };
      if (strategy === 'compiler' && j === 5)
        return row({
          ...at,
          success: false,
          reason: 'INSUFFICIENT_BUDGET',
          budget_slack: null,
          must_recall: 0,
        });
      if (strategy === 'prompt-tsx' && j === 0)
        return row({
          ...at,
          success: false,
          reason: STRATEGY_ERROR,
          status_correct: null,
          budget_compliant: null,
          must_recall: null,
        });
      return row({
        ...at,
        rendered_tokens: 100 * (i + 1) + j,
        budget_compliant: j >= (OVER[i] as number),
        ...legality((j + i) % 3 !== 0),
      });
    }),
);

/** A count over rows computed here: error rows are not scored compilations. */
export const countOf = (rows: readonly Row[], pick: (r: Row) => boolean): number =>
  rows.filter((r) => r.reason !== STRATEGY_ERROR && pick(r)).length;
export const overBudget = (r: Row): boolean => r.budget_compliant === false;
export const illegalBundle = (r: Row): boolean => r.success && r.audit?.legal === false;
