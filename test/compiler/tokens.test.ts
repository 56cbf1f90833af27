import { describe, expect, it } from 'vitest';
import {
  decorationCost,
  estimateTokens_APPROX,
  headerCost,
  roundHalfEven,
  separatorCost,
} from '../../src/compiler/index.js';
import { cand, policy, req } from '../helpers/pool.js';

const words = (n: number) => Array.from({ length: n }, (_, k) => `w${k}`).join(' ');

describe('the word estimate (1.3 tokens a word, half to even)', () => {
  it.each([
    [1, 1],
    [2, 3],
    [3, 4],
    [5, 6],
    [10, 13],
    [15, 20],
    [25, 32],
    [35, 46],
    [45, 58],
  ])('%i words cost %i tokens', (n, tokens) => {
    expect(estimateTokens_APPROX(words(n))).toBe(tokens);
  });

  it('counts runs of whitespace as one break and ignores the ends', () => {
    expect(estimateTokens_APPROX('  a \n\t b   ')).toBe(3);
    expect(estimateTokens_APPROX('   ')).toBe(0);
    expect(estimateTokens_APPROX('')).toBe(0);
  });

  it('rounds exact halves to the even neighbour, like Python', () => {
    expect(roundHalfEven(0.5)).toBe(0);
    expect(roundHalfEven(1.5)).toBe(2);
    expect(roundHalfEven(2.5)).toBe(2);
    expect(roundHalfEven(2.6)).toBe(3);
    expect(roundHalfEven(3.4999)).toBe(3);
  });
});

describe('derived costs', () => {
  it('a separator costs 1, a decoration of two words 3, a three-word header 4', () => {
    expect(separatorCost(policy())).toBe(1);
    expect(decorationCost(cand('a'), policy())).toBe(3);
    expect(decorationCost(cand('a', { source_kind: 'one', kind: 'two three four' }), policy())).toBe(5);
    expect(headerCost(req(10), policy())).toBe(4);
    expect(headerCost(req(10, { request_id: 'a b c' }), policy())).toBe(6);
  });
});
