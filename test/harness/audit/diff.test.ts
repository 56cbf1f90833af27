import { describe, expect, it } from 'vitest';
import { firstDifference } from '../../../src/harness/audit/index.js';

describe('firstDifference: equal values', () => {
  it('is null for structurally equal JSON, whatever the key order', () => {
    const a = JSON.parse('{"x": 1, "y": [{"p": true, "q": null}, "s"], "z": {}}');
    const b = JSON.parse('{"z": {}, "y": [{"q": null, "p": true}, "s"], "x": 1}');
    expect(firstDifference(a, b)).toBeNull();
  });

  it('compares numbers by value: 1 equals 1.0 and 1e0', () => {
    expect(firstDifference(JSON.parse('{"n": [1, 2.50]}'), JSON.parse('{"n": [1.0, 2.5e0]}'))).toBeNull();
  });

  it('is null for equal primitives and empty containers', () => {
    for (const x of [0, 'text', true, null, [], {}])
      expect(firstDifference(x, structuredClone(x))).toBeNull();
  });
});

describe('firstDifference: the path of the first difference', () => {
  it('names nested keys and indices: $.a[2].b', () => {
    const a = { a: [{ b: 1 }, { b: 2 }, { b: 3, c: 4 }] };
    const b = { a: [{ b: 1 }, { b: 2 }, { b: 30, c: 4 }] };
    expect(firstDifference(a, b)).toBe('$.a[2].b (3 vs 30)');
  });

  it('reports the first of several differences, array elements in order', () => {
    expect(firstDifference([0, 1, 2, 3], [0, 9, 2, 8])).toBe('$[1] (1 vs 9)');
  });

  it('gives both lengths when arrays differ in length', () => {
    expect(firstDifference({ a: [1, 2, 3] }, { a: [1, 2] })).toBe('$.a (length 3 vs 2)');
  });

  it('names a key present on one side only, from either side', () => {
    expect(firstDifference({ a: 1, b: 2 }, { a: 1 })).toBe('$.b (present on one side only)');
    expect(firstDifference({ a: { x: 1 } }, { a: { x: 1, y: null } })).toBe(
      '$.a.y (present on one side only)',
    );
  });

  it('stops at a type mismatch between an array and an object', () => {
    expect(firstDifference({ a: [1] }, { a: { 0: 1 } })).toBe('$.a');
    expect(firstDifference({ a: {} }, { a: [] })).toBe('$.a');
  });

  it('shows differing primitives as JSON, null and strings included', () => {
    expect(firstDifference(1, 2)).toBe('$ (1 vs 2)');
    expect(firstDifference('1', 1)).toBe('$ ("1" vs 1)');
    expect(firstDifference({ a: null }, { a: { b: 1 } })).toBe('$.a (null vs {"b":1})');
    expect(firstDifference([true], [false])).toBe('$[0] (true vs false)');
  });
});
