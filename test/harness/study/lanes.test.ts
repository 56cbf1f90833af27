/**
 * A study's jobs take whole cases (study/slice.ts): each case's cells are asked by one job, so a
 * case's pool crosses to one strategy process and what a strategy keeps between a case's cells
 * is made once; and runs of consecutive cases, so that what it keeps from one case for the next
 * serves. The rows do not show the jobs (where.test.ts compares them with one job's).
 */
import { describe, expect, it, vi } from 'vitest';
import { pickStrategies } from '../../../src/harness/hosts/index.js';
import { corpus } from '../../helpers/corpus.js';
import { Hosts } from '../../helpers/in-thread-hosts.js';
import { study } from '../../helpers/study.js';

// Asked in this thread, and each ask recorded with the job that asked it.
vi.mock('../../../src/harness/hosts/hosts.js', () => import('../../helpers/in-thread-hosts.js'));

const where = {
  in: 'processes',
  strategies: pickStrategies(['dump', 'compiler']),
  timeout: 120_000,
} as const;

async function lanesOf(setup: Parameters<typeof study>[0]) {
  Hosts.asked.length = 0;
  const out = await study({ where, ...setup });
  expect(out.state).toBe('finished');
  const byCase = new Map<string, Set<number | undefined>>();
  for (const a of Hosts.asked) byCase.set(a.key, (byCase.get(a.key) ?? new Set()).add(a.lane));
  return byCase;
}

describe('jobs take whole cases', () => {
  it('asks every cell of a case from one job, and keeps every job busy', async () => {
    const byCase = await lanesOf({ jobs: 3 });
    expect(new Set(byCase.keys())).toEqual(new Set(corpus().cases.map((c) => c.name)));
    for (const [kase, lanes] of byCase) expect(lanes.size, kase).toBe(1);
    expect(new Set([...byCase.values()].flatMap((l) => [...l]))).toEqual(new Set([0, 1, 2]));
  });

  it('takes runs of consecutive cases, shorter toward the end, rather than cases in turn', async () => {
    const byCase = await lanesOf({ jobs: 2 });
    const lanes = corpus().cases.map((c) => [...(byCase.get(c.name) ?? [])][0]);
    // The lengths of the runs of one lane, in case order.
    const runs: number[] = [];
    lanes.forEach((lane, k) => {
      if (k > 0 && lane === lanes[k - 1]) runs.push((runs.pop() as number) + 1);
      else runs.push(1);
    });
    // Cases in turn would be runs of one; the first run is a few cases, the last one case.
    expect(runs.length, lanes.join(' ')).toBeLessThan(lanes.length - 4);
    expect(runs[0]).toBeGreaterThan(2);
    expect(runs.at(-1)).toBe(1);
    expect(new Set(lanes)).toEqual(new Set([0, 1]));
  });

  it('takes a slice of fewer cases than jobs cell by cell, every job busy', async () => {
    // The last third of a shard of one case's cells: one case, three jobs.
    const byCase = await lanesOf({ jobs: 3, shard: { index: 1, count: 14 } });
    expect(byCase.size).toBe(1);
    expect([...byCase.values()][0]).toEqual(new Set([0, 1, 2]));
  });
});
