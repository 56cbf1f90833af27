import { describe, expect, it } from 'vitest';
import { strategyStats } from '../../../src/harness/metrics/index.js';
import { headlineTable, renderTable, type Table } from '../../../src/harness/report/index.js';
import { STRATEGY_ERROR } from '../../../src/harness/vocabulary.js';
import { row } from '../../helpers/rows.js';

const TABLE: Table = {
  headers: ['name', 'count', 'share'],
  rows: [
    ['a, "quoted"', 5318541, 0.826],
    ['b', 7, null],
  ],
  kinds: [undefined, 'count', 'factor'],
};

describe('renderTable', () => {
  it('text and Markdown show numbers as people read them, aligned right', () => {
    const text = renderTable(TABLE, 'text').split('\n');
    expect(text[2]).toBe('a, "quoted"  5,318,541   0.83');
    expect(text[3]).toBe('b                    7      -');
    expect(renderTable(TABLE, 'md').split('\n')[1]).toBe('| --- | ---: | ---: |');
    expect(renderTable(TABLE, 'md').split('\n')[2]).toBe('| a, "quoted" | 5,318,541 | 0.83 |');
  });

  it('CSV and JSON keep numbers as numbers, and quote what needs it', () => {
    expect(renderTable(TABLE, 'csv')).toBe('name,count,share\n"a, ""quoted""",5318541,0.826\nb,7,\n');
    expect(JSON.parse(renderTable(TABLE, 'json'))).toEqual([
      { name: 'a, "quoted"', count: 5318541, share: 0.826 },
      { name: 'b', count: 7, share: null },
    ]);
  });
});

describe('headlineTable', () => {
  const stats = (rows: Parameters<typeof strategyStats>[0]) =>
    new Map([['compiler-strict', strategyStats(rows)]]);

  it('fits 100 columns for the longest registered names and large figures', () => {
    const big = row({ strategy: 'compiler-strict', rendered_tokens: 12_345_678, scope_violations: 12_345 });
    const lines = renderTable(headlineTable(stats([big])), 'text')
      .trimEnd()
      .split('\n');
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(100);
    expect(lines[2]).toContain('12,345,678');
  });

  it('sums the six violation kinds, and shows errors only when a strategy failed', () => {
    const r = row({ scope_violations: 2, freshness_violations: 1, group_violations: 4 });
    const plain = headlineTable(stats([r]));
    expect(plain.headers).not.toContain('errors');
    expect(plain.rows[0]?.[plain.headers.indexOf('violations')]).toBe(7);
    const failed = headlineTable(stats([r, row({ success: false, reason: STRATEGY_ERROR })]));
    expect(failed.rows[0]?.[failed.headers.indexOf('errors')]).toBe(1);
    for (const line of renderTable(failed, 'text').split('\n')) expect(line.length).toBeLessThanOrEqual(100);
  });

  it('has a row per strategy in the stats, in their order, not sorted', () => {
    const names = ['topk', 'compiler', 'dump'];
    const table = headlineTable(new Map(names.map((n) => [n, strategyStats([row({ strategy: n })])])));
    expect(table.rows.map((r) => r[0])).toEqual(names);
  });
});
