import { describe, expect, it } from 'vitest';
import type { StrategyInput } from '../../src/harness/types.js';
import compiler from '../../strategies/compiler.js';
import compilerStrict from '../../strategies/compiler-strict.js';
import { asBundle, asRefusal, measured } from '../helpers/compiled.js';
import { cand, policy, req } from '../helpers/pool.js';

describe('compiler-strict is the compiler under required_missing "refuse"', () => {
  const input = (candidates: StrategyInput['candidates'], required_ids: string[] = []): StrategyInput => ({
    request: req(1000, { required_ids }),
    candidates,
    policy: policy(),
    budget: 1000,
  });

  it('refuses REQUIRED content without a legal form, which the reference silently omits', () => {
    const pool = [cand('r', { requirement: 'REQUIRED', scope_eligible: false }), cand('d')];
    expect(asBundle(measured(compiler, input(pool))).admitted).toEqual(['d']);
    const strict = measured(compilerStrict, input(pool));
    expect(asRefusal(strict).reason).toBe('REQUIRED_INELIGIBLE');
  });

  it('agrees with the compiler when nothing is missing, even with a corpus-default policy', () => {
    const pool = [cand('m', { requirement: 'MANDATORY' }), cand('d')];
    expect(asBundle(measured(compilerStrict, input(pool))).result).toEqual(
      asBundle(measured(compiler, input(pool))).result,
    );
  });
});
