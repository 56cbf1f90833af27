/**
 * A strategy's figure of each measure is made of its bundles' values as the catalogue says: a
 * mean over the bundles that define it, or a sum for tokens; a run written before the measures
 * has none, and says so with null rather than 0.
 */
import { describe, expect, it } from 'vitest';
import { ROW_MEASURES, strategyStats } from '../../../src/harness/metrics/index.js';
import { measures, row } from '../../helpers/rows.js';

describe('measure figures of a strategy', () => {
  const rows = [
    row({
      measures: measures({
        ndcg: 0.5,
        must_middle_share: 0.25,
        redundant_tokens: 7,
        overshoot_tokens: 3,
        useful_share: 0.5,
        composition: {
          frame: 5,
          roles: { task: 10, evidence: 20 },
          classes: { MANDATORY: 10, REQUIRED: 0, PREFERRED: 20, DISCRETIONARY: 0 },
        },
      }),
    }),
    // ndcg undefined here: left out of its mean, not counted as 0.
    row({
      measures: measures({
        redundant_tokens: 4,
        useful_share: 1,
        composition: {
          frame: 2,
          roles: { evidence: 8 },
          classes: { MANDATORY: 0, REQUIRED: 0, PREFERRED: 0, DISCRETIONARY: 8 },
        },
      }),
    }),
    // A refusal carries no measures.
    row({ success: false, reason: 'INSUFFICIENT_BUDGET', measures: null }),
  ];

  it('means over the bundles that define a measure, sums of tokens, composition summed', () => {
    const s = strategyStats(rows);
    expect(s.measures.ndcg).toBe(0.5); // only the first bundle defines it
    expect(s.measures.must_middle_share).toBe(0.25);
    expect(s.measures.useful_share).toBe(0.75); // (0.5 + 1) / 2
    expect(s.measures.redundant_tokens).toBe(11); // 7 + 4
    expect(s.measures.overshoot_tokens).toBe(3);
    expect(s.measures.budget_use).toBeNull(); // defined by neither
    expect(s.composition).toEqual({
      frame: 7,
      roles: { task: 10, evidence: 28 },
      classes: { MANDATORY: 10, REQUIRED: 0, PREFERRED: 20, DISCRETIONARY: 8 },
    });
  });

  it('a run written before the measures has none of them, not zeros', () => {
    const s = strategyStats([row(), row({ success: false, reason: 'INSUFFICIENT_BUDGET' })]);
    for (const m of ROW_MEASURES) expect(s.measures[m.name], m.name).toBeNull();
    expect(s.composition).toBeNull();
  });
});
