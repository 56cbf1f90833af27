import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { type BenchRecord, compareBench, MIN_SLOWDOWN } from '../../../src/harness/bench/bench.js';
import { cli, tempDir } from '../../helpers/cli.js';

const tmp = tempDir('bench');
const rec = (name: string, median: number, mad: number, outcome = 'bundle x'): BenchRecord => ({
  name,
  median_ms: median,
  mad_ms: mad,
  p75_ms: median,
  samples: 10,
  outcome,
});

describe('comparing with a baseline', () => {
  it('flags a slow-down beyond the floor when the runs are steady', () => {
    const [c] = compareBench([rec('t', 1.2, 0)], [rec('t', 1, 0)]);
    expect(c).toMatchObject({ slower: true, changed: false });
    expect(c?.threshold).toBeCloseTo(1 + MIN_SLOWDOWN);
    expect(compareBench([rec('t', 1.05, 0)], [rec('t', 1, 0)])[0]?.slower).toBe(false);
  });

  it('does not flag what the spread of the two runs explains', () => {
    // 20% slower, but each run varies by 10% of its median: the threshold is 1 + 3 x 0.2 = 1.6.
    const [c] = compareBench([rec('t', 1.2, 0.12)], [rec('t', 1, 0.1)]);
    expect(c?.slower).toBe(false);
    expect(c?.threshold).toBeCloseTo(1.6);
    expect(compareBench([rec('t', 1.7, 0.17)], [rec('t', 1, 0.1)])[0]?.slower).toBe(true);
  });

  it('flags a changed outcome as a regression of its own, however fast', () => {
    const [c] = compareBench([rec('t', 0.5, 0, 'refusal INSUFFICIENT_BUDGET')], [rec('t', 1, 0, 'bundle x')]);
    expect(c).toMatchObject({ slower: false, changed: true });
    expect(c?.detail).toBe('outcome changed: bundle x -> refusal INSUFFICIENT_BUDGET');
  });
});

describe('ctxbench bench', () => {
  it('saves a run, and against a baseline exits 1 on a changed outcome', async () => {
    const saved = path.join(tmp, 'bench.json');
    const args = ['bench', '--strategies', 'dump', '--sizes', '20', '--time', '5', '--save', saved];
    const first = await cli(...args);
    expect(first.code).toBe(0);
    const file = JSON.parse(fs.readFileSync(saved, 'utf8'));
    expect(file.tasks.map((t: BenchRecord) => t.name)).toEqual([
      'dump budget-slack',
      'dump conflict-trap',
      'dump dependency-cycle',
      'dump dependency-trap',
      'dump heterogeneous-basic',
      'dump mandatory-overflow',
      'dump no-legal-representation',
      'dump qualification-trap',
      'dump rendered-overflow',
      'dump representation-alternatives',
      'dump required-unavailable',
      'dump shared-dependency',
      'dump stale-cheap',
      'dump wrong-scope',
      'study compiler-v1',
      'dump @20',
    ]);
    const tampered = path.join(tmp, 'tampered.json');
    file.tasks[0].outcome = 'refusal SOMETHING_ELSE';
    fs.writeFileSync(tampered, JSON.stringify(file));
    const again = await cli(
      'bench',
      '--strategies',
      'dump',
      '--sizes',
      '20',
      '--time',
      '5',
      '--baseline',
      tampered,
    );
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('regression: dump budget-slack: outcome changed');
  });
});
