import { describe, expect, it } from 'vitest';
import { gate } from '../../src/compiler/index.js';
import { cand } from '../helpers/pool.js';

describe('the four hard gates', () => {
  it('pass an eligible candidate with the reference detail', () => {
    expect(gate(cand('a'))).toEqual({
      code: 'eligible',
      detail: 'passed scope/freshness/authority/floor gates',
    });
  });

  it('check scope, then freshness, then authority, then the floor; the first failure wins', () => {
    const all = {
      scope_eligible: false,
      scope_reason: 'scope: b',
      freshness_eligible: false,
      freshness_reason: 'stale',
      authority_eligible: false,
      authority_reason: 'untrusted',
      form_rank: 0,
      min_rank: 2,
    };
    expect(gate(cand('a', all))).toEqual({ code: 'scope_ineligible', detail: 'scope: b' });
    expect(gate(cand('a', { ...all, scope_eligible: true }))).toEqual({
      code: 'freshness_ineligible',
      detail: 'stale',
    });
    expect(gate(cand('a', { ...all, scope_eligible: true, freshness_eligible: true }))).toEqual({
      code: 'authority_ineligible',
      detail: 'untrusted',
    });
    expect(gate(cand('a', { form_rank: 0, min_rank: 2 }))).toEqual({
      code: 'illegal_representation',
      detail: 'form_rank 0 below floor 2',
    });
  });

  it('accept a form exactly at its floor', () => {
    expect(gate(cand('a', { form_rank: 2, min_rank: 2 })).code).toBe('eligible');
  });
});
