/**
 * HiGHS solves remembered in a process (kit/exact/highs.ts): `compiler-v2`'s certificate and
 * `exact` solve the same programs for a cell. A remembered answer is given again only where the
 * solve would end the same: finished under limits no larger, or stopped under the very same.
 */
import { describe, expect, it } from 'vitest';
import { solveLp } from '../../src/harness/kit/exact/highs.js';

// A knapsack of 40 items, cut in half: the solver branches (no node allowed, it stops).
const model = (bonus: number) => {
  const items = Array.from({ length: 40 }, (_, i) => i);
  const weight = (i: number) => 13 + ((i * 37) % 29);
  const value = (i: number) => 17 + ((i * 53) % 31) + (i === 0 ? bonus : 0);
  const half = items.reduce((n, i) => n + weight(i), 0) / 2 + 0.5;
  return [
    'Maximize',
    ` obj: ${items.map((i) => `${value(i)} x${i}`).join(' + ')}`,
    'Subject To',
    ` cap: ${items.map((i) => `${weight(i)} x${i}`).join(' + ')} <= ${half}`,
    'Bounds',
    ...items.map((i) => ` 0 <= x${i} <= 1`),
    'General',
    ` ${items.map((i) => `x${i}`).join(' ')}`,
    'End',
    '',
  ].join('\n');
};

describe('a solve remembered', () => {
  it('is given again under limits no smaller when it finished, and solved again otherwise', () => {
    const text = model(0);
    const stopped = solveLp(text, { nodes: 0, iterations: 1_000_000 });
    expect(stopped.status).toBe('limit');
    expect(solveLp(text, { nodes: 0, iterations: 1_000_000 })).toBe(stopped);
    // Stopped by a limit: not the answer under larger ones.
    const optimal = solveLp(text, { nodes: 100_000, iterations: 1_000_000 });
    expect(optimal.status).toBe('optimal');
    expect(solveLp(text, { nodes: 100_000, iterations: 1_000_000 })).toBe(optimal);
    expect(solveLp(text, { nodes: 200_000, iterations: 5_000_000 })).toBe(optimal);
    // Under smaller limits it might have stopped: solved again.
    const smaller = solveLp(text, { nodes: 1, iterations: 1_000_000 });
    expect(smaller).not.toBe(optimal);
    expect(smaller).toEqual(optimal);
  });

  it('is another model’s only when its text is the same', () => {
    const one = solveLp(model(0), { nodes: 100_000, iterations: 1_000_000 });
    const two = solveLp(model(100), { nodes: 100_000, iterations: 1_000_000 });
    expect(two).not.toBe(one);
    expect(one.status === 'optimal' && two.status === 'optimal' && one.objective !== two.objective).toBe(
      true,
    );
  });
});
