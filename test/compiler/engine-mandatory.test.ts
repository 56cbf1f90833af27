import { describe, expect, it } from 'vitest';
import { compileContext } from '../../src/compiler/index.js';
import { cand, policy, rendered, req } from '../helpers/pool.js';
import { admittedIds, entry } from '../helpers/trace.js';

const M = { requirement: 'MANDATORY' as const, content_identity: 'X' };

describe('the MANDATORY stage takes the cheapest eligible form', () => {
  it('prefers the cheaper form and closes the other out as an alternative', () => {
    const out = compileContext(
      req(1000),
      [cand('m-a', { ...M, token_count: 100 }), cand('m-b', { ...M, token_count: 30 })],
      policy(),
    );
    expect(admittedIds(out)).toEqual(['m-b']);
    expect(out.result.bundle_tokens).toBe(rendered(30));
    expect(entry(out, 'm-a')).toMatchObject({
      decision: 'REJECTED_ALTERNATIVE',
      reason_code: 'alternative_selected',
      marginal_cost: 0,
    });
    expect(entry(out, 'm-b')).toMatchObject({ decision: 'ADMITTED', reason_detail: 'mandatory' });
  });

  it('prices a form with its dependencies', () => {
    const out = compileContext(
      req(1000),
      [
        cand('m-a', { ...M, token_count: 100 }),
        cand('m-b', { ...M, token_count: 20, depends_on: ['tool'] }),
        cand('tool', { token_count: 200, relevance: 0.1 }),
      ],
      policy(),
    );
    expect(admittedIds(out)).toEqual(['m-a']);
  });

  it('tries the next form when a form and its group do not fit', () => {
    const out = compileContext(
      req(300),
      [
        cand('f1', { ...M, token_count: 10, group_id: 'G', group_required: true }),
        cand('g2', { ...M, token_count: 500, group_id: 'G', group_required: true }),
        cand('f2', { ...M, token_count: 100 }),
      ],
      policy(),
    );
    expect(admittedIds(out)).toEqual(['f2']);
    expect(entry(out, 'f1').decision).toBe('REJECTED_ALTERNATIVE');
  });

  it('admits a form with its whole required group as one unit', () => {
    const group = { requirement: 'MANDATORY' as const, group_id: 'G', group_required: true };
    const out = compileContext(
      req(1000),
      [cand('g1', { ...group, token_count: 30 }), cand('g2', { ...group, token_count: 40 })],
      policy(),
    );
    expect(admittedIds(out)).toEqual(['g1', 'g2']);
    for (const id of ['g1', 'g2']) {
      expect(entry(out, id)).toMatchObject({ budget_before: 1000, budget_after: 930, pulled_in_by: [] });
    }
  });
});

describe('the MANDATORY stage refuses with a named reason', () => {
  it('refuses a blocked form without falling back to a dearer one', () => {
    const out = compileContext(
      req(1000),
      [
        cand('f1', { ...M, token_count: 10, depends_on: ['bad'] }),
        cand('bad', { token_count: 5, scope_eligible: false }),
        cand('f2', { ...M, token_count: 50 }),
      ],
      policy(),
    );
    expect(out.result.failure).toMatchObject({
      reason: 'UNSATISFIED_DEPENDENCY',
      blocking_ids: ['X'],
      diagnostic: 'mandatory X blocked: dependency-ineligible:bad(scope_ineligible)',
    });
  });

  it('names the floor when every form is below it, eligibility otherwise', () => {
    const floor = [
      cand('f1', { ...M, form_rank: 1, min_rank: 3 }),
      cand('f2', { ...M, form_rank: 2, min_rank: 3 }),
    ];
    const a = compileContext(req(1000), floor, policy());
    expect(a.result.failure).toMatchObject({
      reason: 'NO_LEGAL_REPRESENTATION',
      blocking_ids: ['X'],
      diagnostic: 'mandatory X: all forms violate floor',
    });
    expect(entry(a, 'f1').decision).toBe('REJECTED_HARD');
    const b = compileContext(
      req(1000),
      [floor[0]!, cand('f2', { ...M, authority_eligible: false })],
      policy(),
    );
    expect(b.result.failure).toMatchObject({
      reason: 'REQUIRED_INELIGIBLE',
      diagnostic: 'mandatory X: no hard-eligible form',
    });
  });

  it('processes contents alphabetically, so budget_used counts what came before', () => {
    const out = compileContext(
      req(300),
      [
        cand('second', { requirement: 'MANDATORY', content_identity: 'b', token_count: 500 }),
        cand('first', { requirement: 'MANDATORY', content_identity: 'a', token_count: 60 }),
      ],
      policy(),
    );
    expect(out.bundle).toBeNull();
    expect(out.result.failure).toMatchObject({
      reason: 'INSUFFICIENT_BUDGET',
      blocking_ids: ['b'],
      budget_used: 60,
      budget_total: 300,
      diagnostic: 'mandatory b closure exceeds remaining budget',
    });
    expect(entry(out, 'first')).toMatchObject({ decision: 'ADMITTED', position: null });
    expect(out.result.trace.entries.map((e) => e.candidate_id)).toEqual(['first']);
  });
});
