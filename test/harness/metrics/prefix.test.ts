/**
 * Prefix stability on hand-made rendered texts, counted by a stand-in counter of one token per
 * character so that every figure can be worked out in the comments.
 */
import { describe, expect, it } from 'vitest';
import { CACHED_PRICE, commonPrefix, prefixStability } from '../../../src/harness/metrics/prefix.js';
import type { BudgetName, Row } from '../../../src/harness/types.js';
import { row } from '../../helpers/rows.js';

const chars = async (t: string) => t.length;
const at = (c: string, budget: BudgetName, success = true): Row =>
  row({ case: c, budget, success, reason: success ? null : 'INSUFFICIENT_BUDGET' });

describe('commonPrefix', () => {
  it('stops at the first difference and never splits a surrogate pair', () => {
    expect(commonPrefix('abcdef', 'abcxyz')).toBe('abc');
    expect(commonPrefix('same', 'same')).toBe('same');
    expect(commonPrefix('', 'x')).toBe('');
    // U+1F600 and U+1F601 share their high surrogate: the common prefix holds "a" alone.
    expect(commonPrefix('a\u{1F600}', 'a\u{1F601}')).toBe('a');
  });
});

describe('prefix stability', () => {
  // One strategy, two cases, in loop order: c1 tight, medium, roomy; c2 tight, medium, roomy.
  const rows = [
    at('c1', 'tight'),
    at('c1', 'medium'),
    at('c1', 'roomy'),
    at('c2', 'tight'),
    at('c2', 'medium', false),
    at('c2', 'roomy'),
  ];
  const texts = ['HEAD-a', 'HEAD-ab', 'HEAD-abc', 'HEAD-x', null, 'HEAD-xy'];

  it('pairs each bundle with the one before it in its case and at its budget', async () => {
    const s = (await prefixStability(rows, texts, chars)).get('a');
    // Budget pairs: c1 tight->medium ("HEAD-a" of "HEAD-ab": 6 of 7), c1 medium->roomy (7 of 8).
    // c2 medium refused: no c2 tight->medium, and roomy's predecessor in c2 is gone, so no pair.
    expect(s?.budgets.pairs).toBe(2);
    expect(s?.budgets.prefix_tokens).toBe((6 + 7) / 2);
    expect(s?.budgets.share).toBeCloseTo((6 / 7 + 7 / 8) / 2, 12);
    // Saving: 13 cached tokens of 15, each saving 1 - CACHED_PRICE of its price.
    expect(s?.budgets.saving).toBeCloseTo((13 * (1 - CACHED_PRICE)) / 15, 12);
    // Case pairs: tight c1->c2 ("HEAD-" of "HEAD-x": 5 of 6); medium has no c2 bundle; roomy
    // c1->c2 ("HEAD-abc" against "HEAD-xy": "HEAD-", 5 of 7).
    expect(s?.cases.pairs).toBe(2);
    expect(s?.cases.prefix_tokens).toBe(5);
    expect(s?.cases.share).toBeCloseTo((5 / 6 + 5 / 7) / 2, 12);
  });

  it('takes a row’s own o200k count as its length when the row has one', async () => {
    const counted = rows.map((r, k) =>
      k === 1
        ? {
            ...r,
            audit: {
              legal: true,
              missing_required: [],
              objective: { preferred: 0, discretionary: 0, rendered_cost: 0 },
              real_tokens: { o200k: 70, cl100k: 1 },
            },
          }
        : r,
    );
    const s = (await prefixStability(counted, texts, chars)).get('a');
    // The first budget pair is now 6 of 70.
    expect(s?.budgets.share).toBeCloseTo((6 / 70 + 7 / 8) / 2, 12);
  });

  it('a strategy without two bundles in a row has no pairs, and no figures', async () => {
    const s = (await prefixStability([at('c1', 'tight')], ['HEAD'], chars)).get('a');
    expect(s?.budgets).toEqual({ pairs: 0, prefix_tokens: null, share: null, saving: null });
    expect(s?.cases.pairs).toBe(0);
  });
});
