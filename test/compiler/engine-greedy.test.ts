import { describe, expect, it } from 'vitest';
import { compileContext } from '../../src/compiler/index.js';
import { at } from '../helpers/corpus.js';
import { cand, policy, req } from '../helpers/pool.js';
import { admittedIds, entry } from '../helpers/trace.js';

describe('greedy ranking: relevance, then new coverage, then cost, then id', () => {
  it('admits in rank order, visible in the budget each admission saw', () => {
    const out = compileContext(
      req(1000),
      [
        cand('a', { relevance: 0.5, token_count: 100 }),
        cand('b', { relevance: 0.9, token_count: 100 }),
        cand('c', { relevance: 0.9, token_count: 50, coverage_keys: ['k'] }),
        cand('d', { relevance: 0.9, token_count: 50 }),
        cand('e', { relevance: 0.9, token_count: 50 }),
      ],
      policy(),
    );
    const seen = (id: string) => entry(out, id).budget_before;
    expect([seen('c'), seen('d'), seen('e'), seen('b'), seen('a')]).toEqual([1000, 950, 900, 850, 750]);
  });

  it('offers PREFERRED before DISCRETIONARY whatever the relevance', () => {
    const out = compileContext(
      req(60),
      [
        cand('p', { requirement: 'PREFERRED', relevance: 0.4, token_count: 50 }),
        cand('d', { relevance: 0.9, token_count: 50 }),
      ],
      policy(),
    );
    expect(admittedIds(out)).toEqual(['p']);
    expect(entry(out, 'd')).toMatchObject({
      decision: 'REJECTED_BUDGET',
      reason_code: 'budget',
      reason_detail: 'unit exceeds remaining budget',
      marginal_cost: 50,
      budget_before: 10,
      budget_after: 10,
    });
  });
});

describe('the adds-nothing rule', () => {
  it('rejects a unit strictly below the threshold that adds no coverage; 0.3 itself earns', () => {
    const out = compileContext(
      req(1000),
      [
        cand('x', { relevance: 0.29, token_count: 7 }),
        cand('y', { relevance: 0.3 }),
        cand('w', { relevance: 0.1, coverage_keys: ['new'] }),
        cand('z', { relevance: 0.1, coverage_keys: ['new'] }),
      ],
      policy(),
    );
    expect(entry(out, 'x')).toMatchObject({
      decision: 'REJECTED_REDUNDANT',
      reason_code: 'no-earn',
      reason_detail: 'below relevance threshold with no new coverage',
      marginal_cost: 7,
    });
    expect(admittedIds(out)).toEqual(['w', 'y']);
    expect(entry(out, 'z').decision).toBe('REJECTED_REDUNDANT');
  });

  it('counts only the members’ coverage keys, not their dependencies’', () => {
    const out = compileContext(
      req(1000),
      [
        cand('u', { relevance: 0.1, depends_on: ['k'] }),
        cand('k', { relevance: 0.1, coverage_keys: ['fresh'] }),
      ],
      policy(),
    );
    expect(entry(out, 'u').decision).toBe('REJECTED_REDUNDANT');
    expect(entry(out, 'k').decision).toBe('ADMITTED');
  });

  it('uses the policy threshold', () => {
    const pool = [cand('x', { relevance: 0.2 })];
    expect(admittedIds(compileContext(req(100), pool, policy({ min_discretionary_relevance: 0.1 })))).toEqual(
      ['x'],
    );
    expect(admittedIds(compileContext(req(100), pool, policy()))).toEqual([]);
  });
});

describe('blocked units', () => {
  it('reject every member when a dependency fails a gate, priced with the whole closure', () => {
    const out = compileContext(
      req(1000),
      [
        cand('u', { token_count: 10, depends_on: ['bad'] }),
        cand('bad', { token_count: 5, authority_eligible: false }),
      ],
      policy(),
    );
    expect(entry(out, 'u')).toMatchObject({
      decision: 'REJECTED_DEPENDENCY',
      reason_code: 'dependency-blocked',
      reason_detail: 'dependency ineligible or collides',
      marginal_cost: 15,
    });
  });

  it('reject a unit whose dependency is another form of admitted content', () => {
    const out = compileContext(
      req(1000),
      [
        cand('x1', { content_identity: 'X', requirement: 'MANDATORY' }),
        cand('x2', { content_identity: 'X' }),
        cand('u', { depends_on: ['x2'] }),
      ],
      policy(),
    );
    expect(entry(out, 'u').decision).toBe('REJECTED_DEPENDENCY');
    expect(admittedIds(out)).toEqual(['x1']);
  });
});

describe('rejections and revivals in the reference corpus', () => {
  it('records greedy rejections at the budget of the round that found them (budget-slack, tight)', () => {
    const { request, candidates, policy: p } = at('budget-slack', 'tight');
    const out = compileContext(request, candidates, p);
    expect(entry(out, 'distract-d1')).toMatchObject({ decision: 'REJECTED_BUDGET', budget_before: 200 });
    expect(entry(out, 'useful-disc')).toMatchObject({
      decision: 'ADMITTED',
      budget_before: 200,
      budget_after: 50,
    });
  });

  it('revives a dependency first rejected as adding nothing (dependency-trap)', () => {
    const { request, candidates, policy: p } = at('dependency-trap', 'medium');
    const out = compileContext(request, candidates, p);
    expect(entry(out, 'resolver-tool')).toMatchObject({
      decision: 'ADMITTED',
      priority_band: 'PREFERRED',
      reason_detail: 'discretionary-greedy',
      pulled_in_by: ['ref-cheap'],
    });
  });
});
