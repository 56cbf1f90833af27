/**
 * compiler-v2 against `exact` (docs/compiler.md §17.5): never an illegal or incomplete bundle,
 * never a bundle where no legal bundle exists, and never a refusal where one does (its refusals
 * are proven), on random pools and on generated pools of 40 and 200 candidates.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { validateBundle, validateResult } from '../../src/compiler/index.js';
import { generateCase } from '../../src/harness/generate/index.js';
import { auditOf, loadExact } from '../../src/harness/kit/index.js';
import { compileAwaited } from '../../src/harness/session/index.js';
import type { StrategyInput } from '../../src/harness/types.js';
import { BUDGETS } from '../../src/harness/vocabulary.js';
import v2 from '../../strategies/compiler-v2.js';
import { randomCase, runs, tieCase } from '../helpers/arbitrary.js';
import { inputAt } from '../helpers/generated.js';
import { policy } from '../helpers/pool.js';

const { solveExact } = await loadExact();

interface Tally {
  feasible: number;
  falseRefusals: number;
}

/** One cell: every promise checked; the tally counts feasible cells and false refusals. */
async function check(input: StrategyInput, tally: Tally, where: string): Promise<void> {
  const feasible = 'admitted' in solveExact(input);
  if (feasible) tally.feasible++;
  const out = await compileAwaited(v2, input);
  expect(out.outcome, where).not.toBe('error');
  if (out.outcome === 'refusal') {
    if (feasible) tally.falseRefusals++;
    expect(out.record.failure?.diagnostic, where).not.toMatch(/^post-compile/);
    expect(validateResult(out.record, input.request, input.candidates), where).toEqual([]);
    return;
  }
  if (out.outcome !== 'bundle') return;
  expect(feasible, `${where}: a bundle where exact proves none exists`).toBe(true);
  const audit = auditOf(input, out.admitted);
  expect([audit.legal, audit.missing_required], where).toEqual([true, []]);
  expect(validateBundle(out.bundle, input.request, input.candidates), where).toEqual([]);
  expect(validateResult(out.record, input.request, input.candidates), where).toEqual([]);
}

describe('compiler-v2 refuses only when it must', () => {
  it('on random pools and pools built to tie (seed 515)', async () => {
    const tally = { feasible: 0, falseRefusals: 0 };
    await fc.assert(
      fc.asyncProperty(fc.oneof(randomCase(14), tieCase()), async ({ request, candidates }) => {
        await check(
          { request, candidates, policy: policy(), budget: request.usable_token_budget },
          tally,
          'random',
        );
      }),
      { seed: 515, numRuns: runs(300, 5000) },
    );
    expect(tally.feasible).toBeGreaterThan(20);
    expect(tally.falseRefusals).toBe(0);
  });

  it.each([40, 200])('on generated pools of %i candidates at three budgets', async (size) => {
    const tally = { feasible: 0, falseRefusals: 0 };
    for (let k = 0; k < runs(size === 40 ? 10 : 4, size === 40 ? 200 : 60); k++) {
      const g = generateCase(`v2-check-${size}/${k}`, size);
      for (const level of BUDGETS) {
        const input = inputAt(g, level);
        await check(input, tally, `${size}/${k}/${level}`);
      }
    }
    expect(tally.feasible).toBeGreaterThan(0);
    expect(tally.falseRefusals).toBe(0);
  });
});
