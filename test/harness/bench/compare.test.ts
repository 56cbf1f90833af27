import fs from 'node:fs';
import path from 'node:path';
import seedrandom from 'seedrandom';
import { describe, expect, it } from 'vitest';
import {
  compareBench,
  comparisonSummary,
  comparisonTable,
  isRegression,
  MIN_SLOWDOWN,
  MIN_SLOWDOWN_MS,
  SPREAD_FACTOR,
} from '../../../src/harness/bench/bench-compare.js';
import { readBaseline } from '../../../src/harness/bench/bench-tasks.js';
import { InputError } from '../../../src/harness/errors.js';
import { renderTable } from '../../../src/harness/report/index.js';
import { tempDir } from '../../helpers/temp.js';

/** One task's timing as a bench file holds it. */
type BenchRecord = ReturnType<typeof readBaseline>['tasks'][number];
/** One task compared with its baseline. */
type Comparison = ReturnType<typeof compareBench>[number];

const tmp = tempDir('bench-compare');
const rec = (name: string, median: number, mad: number, outcome = 'bundle x'): BenchRecord => ({
  name,
  median_ms: median,
  mad_ms: mad,
  p75_ms: median + mad,
  samples: 10,
  outcome,
});
/** The comparison as `bench --baseline` prints it to a terminal. */
const comparisonText = (comparisons: readonly Comparison[]) =>
  `${renderTable(comparisonTable(comparisons), 'text')}\n${comparisonSummary(comparisons)}`;
const one = (current: BenchRecord, baseline: BenchRecord) => {
  const [c] = compareBench([current], [baseline]);
  if (c === undefined) throw new Error('no comparison');
  return c;
};

/** A saved run shaped like a real one: per-case tasks in tenths of a ms, pools up to seconds. */
function syntheticRun(seed: string): BenchRecord[] {
  const rng = seedrandom(seed);
  return Array.from({ length: 60 }, (_, k) => {
    const median = 0.05 * 10 ** (rng() * 5);
    return rec(`task-${k}`, median, median * 0.2 * rng(), `bundle ${k}`);
  });
}

describe('comparing with a baseline', () => {
  it('flags nothing when both runs hold the same samples', () => {
    const run = syntheticRun('identical');
    const comparisons = compareBench(run, structuredClone(run));
    expect(comparisons).toHaveLength(run.length);
    expect(comparisons.filter(isRegression)).toEqual([]);
    for (const c of comparisons) expect(c).toMatchObject({ presence: 'both', ratio: 1, diff_ms: 0 });
  });

  it('flags a task slower by a large margin with a tight spread, in milliseconds', () => {
    const c = one(rec('t', 20, 0.1), rec('t', 10, 0.1));
    expect(c).toMatchObject({ slower: true, changed: false, diff_ms: 10, ratio: 2 });
    expect(isRegression(c)).toBe(true);
    expect(c.flag_above_ms).toBeCloseTo(11); // 10% of 10 ms beats 3 x 0.2 ms and the 1 ms floor
    expect(c.detail).toBe('slower: 10.000 ms -> 20.000 ms (+10.000 ms, 2.00x; flagged above 11.000 ms)');
  });

  it('never flags an absolute difference under the floor, however large the ratio', () => {
    // What two runs of the same code did on a busy machine: 0.14 ms -> 0.39 ms, 2.8 times.
    const c = one(
      rec('exact mandatory-overflow', 0.3894, 0.0412),
      rec('exact mandatory-overflow', 0.1372, 0.0188),
    );
    expect(c.ratio).toBeGreaterThan(2.5);
    expect(c).toMatchObject({ slower: false, changed: false, detail: '' });
    expect(c.flag_above_ms).toBeCloseTo(0.1372 + MIN_SLOWDOWN_MS);
    // The same task past the floor, with the same tight spread, is flagged.
    expect(one(rec('t', 0.2 + MIN_SLOWDOWN_MS + 0.01, 0.001), rec('t', 0.2, 0.001)).slower).toBe(true);
    expect(one(rec('t', 0.2 + MIN_SLOWDOWN_MS - 0.01, 0.001), rec('t', 0.2, 0.001)).slower).toBe(false);
  });

  it('does not flag a slow-down under 10% of the median', () => {
    expect(MIN_SLOWDOWN).toBe(0.1);
    expect(one(rec('t', 109, 0), rec('t', 100, 0)).slower).toBe(false);
    expect(one(rec('t', 111, 0), rec('t', 100, 0)).slower).toBe(true);
  });

  it('does not flag what the two runs spread explains, in milliseconds', () => {
    // Each run varies by 1 ms: 3 x (1 + 1) = 6 ms beats 10% of 10 ms and the floor.
    const c = one(rec('t', 15, 1), rec('t', 10, 1));
    expect(c.slower).toBe(false);
    expect(c.flag_above_ms).toBeCloseTo(10 + SPREAD_FACTOR * 2);
    expect(c.flag_above_ms).toBeCloseTo(16);
    expect(one(rec('t', 16.5, 1), rec('t', 10, 1)).slower).toBe(true);
    // A busy second run: its own spread in ms counts in full, not shrunk by its larger median.
    expect(one(rec('t', 30.8, 12.5), rec('t', 7.39, 0.74)).slower).toBe(false);
  });

  it('flags a changed outcome as a regression of its own, however fast', () => {
    const c = one(rec('t', 0.5, 0, 'refusal INSUFFICIENT_BUDGET'), rec('t', 1, 0, 'bundle x'));
    expect(c).toMatchObject({ slower: false, changed: true });
    expect(isRegression(c)).toBe(true);
    expect(c.detail).toBe('outcome changed: bundle x -> refusal INSUFFICIENT_BUDGET');
    const both = one(rec('t', 30, 0, 'bundle y'), rec('t', 10, 0, 'bundle x'));
    expect(both.detail).toMatch(/^outcome changed: bundle x -> bundle y; slower: 10\.000 ms -> 30\.000 ms/);
  });

  it('compares only tasks in both runs and lists the others once, never as failures', () => {
    const current = [rec('both', 1, 0), rec('new', 50, 0, 'refusal X')];
    // Repeated in the baseline, and with an outcome no run shares: still one line, no failure.
    const baseline = [rec('gone', 2, 0, 'bundle z'), rec('both', 1, 0), rec('gone', 3, 0, 'bundle z')];
    const comparisons = compareBench(current, baseline);
    expect(comparisons.map((c) => [c.name, c.presence])).toEqual([
      ['both', 'both'],
      ['new', 'new'],
      ['gone', 'gone'],
    ]);
    expect(comparisons.filter(isRegression)).toEqual([]);
    expect(comparisons[1]).toMatchObject({
      current_ms: 50,
      baseline_ms: null,
      ratio: null,
      detail: 'only in this run',
    });
    expect(comparisons[2]).toMatchObject({
      current_ms: null,
      baseline_ms: 3,
      detail: 'only in the baseline',
    });
    const text = comparisonText(comparisons);
    expect(text.match(/only in this run/g)).toHaveLength(2); // its row and the summary
    expect(text.match(/^gone .*only in the baseline$/gm)).toHaveLength(1);
    expect(text).toContain('1 task compared: 0 slower, 0 outcomes changed');
    expect(text).toContain('1 only in this run, 1 only in the baseline, not compared');
  });

  it('prints milliseconds beside every ratio', () => {
    const text = comparisonText(
      compareBench(
        [rec('steady', 0.1234, 0.001), rec('slow', 250, 1)],
        [rec('steady', 0.1, 0.001), rec('slow', 100, 1)],
      ),
    );
    const lines = text.split('\n');
    expect(lines[0]?.split(/\s{2,}/)).toEqual([
      'task',
      'baseline ms',
      'current ms',
      'diff ms',
      'ratio',
      'flag above ms',
      'verdict',
    ]);
    // Milliseconds to three places however large, so that the points line up in a column.
    expect(lines[2]?.split(/\s+/)).toEqual(['steady', '0.100', '0.123', '+0.023', '1.23', '1.100', 'ok']);
    expect(lines[3]?.split(/\s+/)).toEqual([
      'slow',
      '100.000',
      '250.000',
      '+150.000',
      '2.50',
      '110.000',
      'SLOWER',
    ]);
    expect(lines[2]?.indexOf('0.123')).toBe((lines[3]?.indexOf('250.000') ?? 0) + 2);
    expect(text).toContain('2 tasks compared: 1 slower, 0 outcomes changed');
  });
});

describe('reading a baseline', () => {
  const write = (name: string, body: unknown) => {
    const file = path.join(tmp, name);
    fs.writeFileSync(file, JSON.stringify(body));
    return file;
  };

  it('reads what bench --save writes', () => {
    const file = write('ok.json', { ctxbench: '0.1.0', tasks: [rec('a', 1, 0.1)] });
    expect(readBaseline(file).tasks).toEqual([rec('a', 1, 0.1)]);
  });

  it('stops on a task the comparison could not read, naming the task and the field', () => {
    const bad = { ...rec('b', 1, 0), median_ms: 'fast' };
    const file = write('bad.json', { tasks: [rec('a', 1, 0), bad] });
    expect(() => readBaseline(file)).toThrow(InputError);
    try {
      readBaseline(file);
    } catch (e) {
      expect((e as InputError).line).toBe(`${file}: tasks[1]: median_ms: not a number of milliseconds >= 0`);
    }
    expect(() => readBaseline(write('neg.json', { tasks: [{ ...rec('a', 1, 0), mad_ms: -1 }] }))).toThrow(
      /mad_ms/,
    );
    expect(() =>
      readBaseline(write('noout.json', { tasks: [{ name: 'a', median_ms: 1, mad_ms: 0 }] })),
    ).toThrow(/outcome/);
    expect(() => readBaseline(write('none.json', { runs: [] }))).toThrow(/no "tasks"/);
  });
});
