/**
 * The one number rule of every table people read (format.ts): counts separated by thousands
 * whatever their size, each other kind to its fixed places, signs on differences, `-` for nothing.
 */
import { describe, expect, it } from 'vitest';
import { count, DIGITS, figure, fixed, int, percent, plural, signed } from '../../../src/harness/format.js';
import { renderTable } from '../../../src/harness/report/index.js';

describe('the rule', () => {
  it('separates every count by thousands, small ones included, so a column reads alike', () => {
    expect([int(0), int(999), int(1000), int(2051), int(5_318_541), int(-1176)]).toEqual([
      '0',
      '999',
      '1,000',
      '2,051',
      '5,318,541',
      '-1,176',
    ]);
  });

  it('gives each kind its places: scores 4, means 1, factors 2, percentages 1, milliseconds 3', () => {
    expect(DIGITS).toEqual({ count: 0, score: 4, mean: 1, factor: 2, percent: 1, ms: 3 });
    expect([
      figure(0.86517, 'score'),
      figure(662.25, 'mean'),
      figure(9.7712, 'factor'),
      figure(0.01234, 'ms'),
      figure(1234.5, 'ms'),
      figure(24466, 'count'),
    ]).toEqual(['0.8652', '662.3', '9.77', '0.012', '1,234.500', '24,466']);
    expect([percent(0.125), percent(1), percent(0.0004), percent(null)]).toEqual([
      '12.5%',
      '100.0%',
      '0.0%',
      '-',
    ]);
  });

  it('separates the integer part of a decimal figure, never its places', () => {
    expect([fixed(12345.6789, 4), fixed(-2641.94, 1), fixed(1000000.5, 1)]).toEqual([
      '12,345.6789',
      '-2,641.9',
      '1,000,000.5',
    ]);
  });

  it('fixed: the digits asked for, "-" for null or no number, never -0', () => {
    expect([fixed(0.75, 4), fixed(2 / 3, 4), fixed(7.5, 1), fixed(3, 0), fixed(null, 4)]).toEqual([
      '0.7500',
      '0.6667',
      '7.5',
      '3',
      '-',
    ]);
    // A mean slack that rounds to zero from below prints as 0.0.
    expect([fixed(-0.04, 1), fixed(Number.NaN, 2)]).toEqual(['0.0', '-']);
  });

  it('signed: a sign on every non-zero figure, separated, "-" for null, never -0', () => {
    expect([signed(51.2449, 2), signed(-210), signed(1176), signed(0), signed(null)]).toEqual([
      '+51.24',
      '-210',
      '+1,176',
      '0',
      '-',
    ]);
    expect([signed(-0), signed(-0.004, 2), signed(0.004, 2), signed(-0.3), signed(-2641.94, 1)]).toEqual([
      '0',
      '0.00',
      '0.00',
      '0',
      '-2,641.9',
    ]);
  });

  it('count: the noun agrees, the figure separated', () => {
    expect([count(1, 'candidate'), count(2051, 'candidate'), count(3, 'strategy')]).toEqual([
      '1 candidate',
      '2,051 candidates',
      '3 strategies',
    ]);
  });

  it('plural: the noun alone, for a figure printed by another rule', () => {
    expect([
      plural(1, 'entry'),
      plural(0, 'entry'),
      plural(2, 'day'),
      plural(2, 'optimum', 'optima'),
    ]).toEqual(['entry', 'entries', 'days', 'optima']);
  });
});

describe('tables follow the rule, data keeps the numbers', () => {
  const table = {
    headers: ['name', 'tokens', 'gap', 'median ms'],
    rows: [
      ['a', 2051, -1176.04, 0.01234],
      ['b', 5_318_541, null, 250],
    ],
    kinds: [undefined, 'count', 'mean', 'ms'] as const,
    signed: [false, false, true, false],
  };

  it('text: 2,051 beside 5,318,541, signs on the difference, places by kind', () => {
    expect(renderTable(table, 'text').split('\n').slice(2, 4)).toEqual([
      'a         2,051  -1,176.0      0.012',
      'b     5,318,541         -    250.000',
    ]);
  });

  it('CSV and JSON: the numbers as they are', () => {
    expect(renderTable(table, 'csv').split('\n')[1]).toBe('a,2051,-1176.04,0.01234');
    expect(JSON.parse(renderTable(table, 'json'))[1]).toEqual({
      name: 'b',
      tokens: 5318541,
      gap: null,
      'median ms': 250,
    });
  });
});
