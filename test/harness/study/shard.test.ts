import { describe, expect, it } from 'vitest';
import { UsageError } from '../../../src/harness/errors.js';
import { parseShard, sliceOf } from '../../../src/harness/shard.js';

describe('parseShard', () => {
  it('accepts i/n with 1 <= i <= n', () => {
    expect(parseShard('1/1')).toEqual({ index: 1, count: 1 });
    expect(parseShard('2/3')).toEqual({ index: 2, count: 3 });
    expect(parseShard('3/3')).toEqual({ index: 3, count: 3 });
    expect(parseShard('12/40')).toEqual({ index: 12, count: 40 });
  });

  it('rejects anything else with a UsageError naming the text', () => {
    for (const text of [
      '0/3',
      '4/3',
      'a/b',
      '1/0',
      '0/0',
      ' 1/3',
      '1/3 ',
      '1/3/5',
      '-1/3',
      '1.5/3',
      '1',
      '/3',
      '',
    ]) {
      let error: unknown;
      try {
        parseShard(text);
      } catch (e) {
        error = e;
      }
      expect(error, text).toBeInstanceOf(UsageError);
      expect((error as Error).message, text).toContain(`"${text}"`);
    }
  });
});

describe('sliceOf', () => {
  it('cuts 10 cells in three as 0..3, 3..6, 6..10', () => {
    expect([1, 2, 3].map((index) => sliceOf({ index, count: 3 }, 10))).toEqual([
      { index: 1, count: 3, from: 0, to: 3, total: 10 },
      { index: 2, count: 3, from: 3, to: 6, total: 10 },
      { index: 3, count: 3, from: 6, to: 10, total: 10 },
    ]);
  });

  it('covers 0..total once, contiguous and in order, slices differing by at most one', () => {
    for (let total = 0; total <= 50; total++) {
      for (let count = 1; count <= 7; count++) {
        const slices = Array.from({ length: count }, (_, k) => sliceOf({ index: k + 1, count }, total));
        const where = `${total} cells in ${count}`;
        const covered = slices.flatMap((s) => Array.from({ length: s.to - s.from }, (_, k) => s.from + k));
        expect(covered, where).toEqual(Array.from({ length: total }, (_, k) => k));
        let at = 0;
        for (const [k, s] of slices.entries()) {
          expect(s, where).toMatchObject({ index: k + 1, count, total, from: at });
          expect(s.to, where).toBeGreaterThanOrEqual(s.from);
          at = s.to;
        }
        const sizes = slices.map((s) => s.to - s.from);
        expect(Math.max(...sizes) - Math.min(...sizes), where).toBeLessThanOrEqual(1);
      }
    }
  });
});
