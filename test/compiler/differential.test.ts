import fc from 'fast-check';
import seedrandom from 'seedrandom';
import { describe, expect, it } from 'vitest';
import { bundleToJSON, compileContext, defaultPolicy, resultToJSON } from '../../src/compiler/index.js';
import { generateCase } from '../../src/harness/generate/index.js';
import { BUDGETS } from '../../src/harness/vocabulary.js';
import { randomCase, runs, tieCase } from '../helpers/arbitrary.js';

const SEED = 'differential-1';

/** The reference policy, refuse mode, and compiler-v2's settings. */
const MODES = [
  { required_missing: 'omit' },
  { required_missing: 'refuse' },
  { pricing: 'rendered', mandatory_form: 'planned', required_missing: 'refuse' },
] as const;

/**
 * The fast engine (the default) against the spec-literal reference engine, byte for byte with
 * the trace, on generated pools of 10 to 2,000 candidates at three budgets, under the reference
 * policy, refuse mode and compiler-v2's settings.
 * Pool sizes lean small (squared uniform) so that the sample stays quick but reaches the large.
 */
describe(`fast and reference engines decide alike (seed ${SEED})`, () => {
  const pools = runs(30, 1000);
  const rng = seedrandom(SEED);
  const sizes = Array.from({ length: pools }, () => 10 + Math.floor(rng() ** 2 * 1991));

  // The full run compiles 18,000 pools of up to 2,000 candidates twice each: minutes, not seconds.
  it(`on ${pools} generated pools`, () => {
    let compared = 0;
    let bundles = 0;
    for (const [k, size] of sizes.entries()) {
      const g = generateCase(`${SEED}/${k}`, size);
      for (const budget of BUDGETS) {
        for (const mode of MODES) {
          const request = { ...g.request, usable_token_budget: g.budgets[budget] };
          const policy = { ...defaultPolicy(), ...mode };
          const bytes = (engine: 'fast' | 'reference') => {
            const out = compileContext(request, g.candidates, policy, { engine });
            if (out.bundle) bundles++;
            return JSON.stringify([out.bundle && bundleToJSON(out.bundle), resultToJSON(out.result)]);
          };
          expect(bytes('fast'), `pool ${k} (${size} candidates), ${budget}, ${JSON.stringify(mode)}`).toBe(
            bytes('reference'),
          );
          compared++;
        }
      }
    }
    expect(compared).toBe(pools * 3 * MODES.length);
    // Both outcomes must be exercised, or the comparison proves little.
    expect(bundles).toBeGreaterThan(compared / 5);
    expect(bundles).toBeLessThan(compared * 2 - compared / 5);
  });

  it('on small random pools with promotions, self-dependencies, groups and ties', () => {
    // The generated pools never name required ids and rarely tie; these do, often.
    fc.assert(
      fc.property(fc.oneof(randomCase(16), tieCase()), ({ request, candidates }) => {
        for (const mode of MODES) {
          const policy = { ...defaultPolicy(), ...mode };
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

  it('under role lists repeated, missing, reversed and empty', () => {
    const roles = ['instruction', 'task', 'state', 'evidence', 'support', 'tool'];
    const orders = fc.oneof(
      fc.constant([...roles].reverse()),
      fc.constant([] as string[]),
      fc.array(fc.constantFrom(...roles), { maxLength: 9 }),
    );
    fc.assert(
      fc.property(fc.oneof(randomCase(12), tieCase()), orders, ({ request, candidates }, order_roles) => {
        for (const mode of MODES) {
          const policy = { ...defaultPolicy(), ...mode, order_roles };
          const bytes = (engine: 'fast' | 'reference') => {
            const out = compileContext(request, candidates, policy, { engine });
            return JSON.stringify([out.bundle && bundleToJSON(out.bundle), resultToJSON(out.result)]);
          };
          expect(bytes('fast')).toBe(bytes('reference'));
        }
      }),
      { seed: 78, numRuns: runs(500, 10_000) },
    );
  });
});
