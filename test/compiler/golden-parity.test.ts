import { describe, expect, it } from 'vitest';
import { runConformance } from '../../src/harness/audit/index.js';
import { corpus, GOLDEN_DIR } from '../helpers/corpus.js';

describe('golden parity with the Python reference (spec 16.3)', () => {
  const report = runConformance(corpus(), GOLDEN_DIR);

  it('covers all 42 golden cases', () => {
    expect(report.cases).toBe(42);
  });

  it.each(report.details)('$case matches its golden file', (d) => {
    expect(d.differences).toEqual([]);
  });

  it('notices a compiler that decides differently', () => {
    const other = runConformance(
      { ...corpus(), policy: { ...corpus().policy, min_discretionary_relevance: 0.1 } },
      GOLDEN_DIR,
    );
    expect(other.mismatches).toBeGreaterThan(0);
  });
});
