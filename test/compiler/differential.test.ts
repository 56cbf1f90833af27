import fc from 'fast-check';
import seedrandom from 'seedrandom';
import { describe, expect, it } from 'vitest';
import { bundleToJSON, compileContext, defaultPolicy, resultToJSON } from '../../src/compiler/index.js';
import { generateCase } from '../../src/harness/generate/case.js';
import { BUDGETS } from '../../src/harness/vocabulary.js';
import { randomCase, runs, tieCase } from '../helpers/arbitrary.js';

const SEED = 'differential-1';

/**
 * The fast engine (the default) against the spec-literal reference engine, byte for byte with
 * the trace, on generated pools of 10 to 2,000 candidates at three budgets, under both policies.
 * Pool sizes lean small (squared uniform) so that the sample stays quick but reaches the large.
 */
describe(`fast and reference engines decide alike (seed ${SEED})`, () => {
  const pools = runs(60, 1000);
  const rng = seedrandom(SEED);
  const sizes = Array.from({ length: pools }, () => 10 + Math.floor(rng() ** 2 * 1991));

  it(`on ${pools} generated pools`, () => {
    let compared = 0;
    let bundles = 0;
    for (const [k, size] of sizes.entries()) {
      const g = generateCase(`${SEED}/${k}`, size);
      for (const budget of BUDGETS) {
        for (const mode of ['omit', 'refuse'] as const) {
          const request = { ...g.request, usable_token_budget: g.budgets[budget] };
          const policy = { ...defaultPolicy(), required_missing: mode };
          const bytes = (engine: 'fast' | 'reference') => {
            const out = compileContext(request, g.candidates, policy, { engine });
            if (out.bundle) bundles++;
            return JSON.stringify([out.bundle && bundleToJSON(out.bundle), resultToJSON(out.result)]);
          };
          expect(bytes('fast'), `pool ${k} (${size} candidates), ${budget}, ${mode}`).toBe(
            bytes('reference'),
          );
          compared++;
        }
      }
    }
    expect(compared).toBe(pools * 6);
    // Both outcomes must be exercised, or the comparison proves little.
    expect(bundles).toBeGreaterThan(compared / 5);
    expect(bundles).toBeLessThan(compared * 2 - compared / 5);
  });

  it('on small random pools with promotions, self-dependencies, groups and ties', () => {
    // The generated pools never name required ids and rarely tie; these do, often.
    fc.assert(
      fc.property(fc.oneof(randomCase(16), tieCase()), ({ request, candidates }) => {
        for (const mode of ['omit', 'refuse'] as const) {
          const policy = { ...defaultPolicy(), required_missing: mode };
          const bytes = (engine: 'fast' | 'reference') => {
            const out = compileContext(request, candidates, policy, { engine });
            return JSON.stringify([out.bundle && bundleToJSON(out.bundle), resultToJSON(out.result)]);
          };
          expect(bytes('fast')).toBe(bytes('reference'));
        }
      }),
      { seed: 77, numRuns: runs(2000, 40_000) },
    );
  });
});
