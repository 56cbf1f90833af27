import { describe, expect, it } from 'vitest';
import { compileContext, validateBundle } from '../../src/compiler/index.js';
import { cand, policy, req, strictPolicy } from '../helpers/pool.js';
import { admittedIds, entry } from '../helpers/trace.js';

const R = { requirement: 'REQUIRED' as const };
const group = { ...R, group_id: 'Q', group_required: true };

describe('required groups are admitted whole or refused', () => {
  const pool = [
    cand('q1', { ...group, token_count: 100, relevance: 0.8 }),
    cand('q2', { ...group, token_count: 50 }),
  ];

  it('commits the group as one unit', () => {
    const out = compileContext(req(1000), pool, policy());
    expect(admittedIds(out)).toEqual(['q1', 'q2']);
    expect(entry(out, 'q2')).toMatchObject({
      reason_detail: 'required',
      budget_before: 1000,
      budget_after: 850,
    });
  });

  it('refuses a group that cannot fit, naming its members', () => {
    const out = compileContext(req(120), pool, policy());
    expect(out.result.failure).toMatchObject({
      reason: 'UNRESOLVED_REQUIRED_GROUP',
      blocking_ids: ['q1', 'q2'],
      diagnostic: 'required group exceeds remaining budget: q1, q2',
    });
  });

  it('refuses a group whose closure holds an ineligible dependency', () => {
    const blocked = [
      pool[0]!,
      cand('q2', { ...group, depends_on: ['bad'] }),
      cand('bad', { freshness_eligible: false }),
    ];
    const out = compileContext(req(1000), blocked, policy());
    expect(out.result.failure).toMatchObject({
      reason: 'UNRESOLVED_REQUIRED_GROUP',
      blocking_ids: ['q1', 'q2'],
      diagnostic: 'required group cannot be satisfied: dependency-ineligible:bad(freshness_ineligible)',
    });
  });
});

describe('a REQUIRED content takes its cheapest fitting form', () => {
  const X = { ...R, content_identity: 'X' };
  const forms = [
    cand('x-full', { ...X, token_count: 300 }),
    cand('x-anchor', { ...X, token_count: 90, representation_id: 'anchor', form_rank: 1 }),
    cand('x-ref', {
      ...X,
      token_count: 20,
      representation_id: 'reference',
      form_rank: 0,
      depends_on: ['res'],
    }),
    cand('res', { token_count: 150, relevance: 0.1 }),
  ];

  it('prices the reference with its resolver, so the anchor wins', () => {
    const out = compileContext(req(1000), forms, policy());
    expect(admittedIds(out)).toEqual(['x-anchor']);
    // Closed out after the commit, so at the reduced budget.
    for (const id of ['x-full', 'x-ref']) {
      expect(entry(out, id)).toMatchObject({
        decision: 'REJECTED_ALTERNATIVE',
        budget_before: 910,
        marginal_cost: 0,
      });
    }
  });

  it('refuses when no form fits', () => {
    const out = compileContext(req(80), forms, policy());
    expect(out.result.failure).toMatchObject({
      reason: 'INSUFFICIENT_BUDGET',
      blocking_ids: ['X'],
      diagnostic: 'required X: no fitting legal form',
    });
  });

  it('refuses a fitting form that is blocked, naming the form', () => {
    const out = compileContext(
      req(1000),
      [
        cand('x-ref', { ...X, token_count: 20, depends_on: ['bad'] }),
        cand('bad', { token_count: 5, scope_eligible: false }),
        cand('x-full', { ...X, token_count: 300 }),
      ],
      policy(),
    );
    expect(out.result.failure).toMatchObject({
      reason: 'UNSATISFIED_DEPENDENCY',
      blocking_ids: ['x-ref'],
      diagnostic: 'required form blocked: dependency-ineligible:bad(scope_ineligible)',
    });
  });
});

describe('promotion by required_ids', () => {
  it('raises the named form, not its siblings, to REQUIRED; MANDATORY stays MANDATORY', () => {
    const out = compileContext(
      req(1000, { required_ids: ['p1', 'm1'] }),
      [
        cand('p1', { requirement: 'PREFERRED', content_identity: 'P', token_count: 50 }),
        cand('p2', { requirement: 'PREFERRED', content_identity: 'P', token_count: 5 }),
        cand('m1', { requirement: 'MANDATORY' }),
      ],
      policy(),
    );
    expect(entry(out, 'p1')).toMatchObject({ priority_band: 'REQUIRED', reason_detail: 'required' });
    expect(entry(out, 'p2')).toMatchObject({ priority_band: 'PREFERRED', decision: 'REJECTED_ALTERNATIVE' });
    expect(entry(out, 'm1').priority_band).toBe('MANDATORY');
  });
});

describe('REQUIRED content with no legal form (the reference omits it, refuse mode refuses)', () => {
  const only = cand('r1', { ...R, content_identity: 'R', scope_eligible: false });
  const floor = cand('r1', { ...R, content_identity: 'R', form_rank: 1, min_rank: 2 });

  it('is silently absent under the reference policy', () => {
    const out = compileContext(req(1000), [only, cand('d1')], policy());
    expect(out.result.success).toBe(true);
    expect(admittedIds(out)).toEqual(['d1']);
  });

  it('refuses under required_missing "refuse", named like the mandatory stage', () => {
    expect(compileContext(req(1000), [only, cand('d1')], strictPolicy()).result.failure).toMatchObject({
      reason: 'REQUIRED_INELIGIBLE',
      blocking_ids: ['R'],
      diagnostic: 'required R: no hard-eligible form',
    });
    expect(compileContext(req(1000), [floor], strictPolicy()).result.failure).toMatchObject({
      reason: 'NO_LEGAL_REPRESENTATION',
      diagnostic: 'required R: all forms violate floor',
    });
  });

  it('in refuse mode, content whose REQUIRED form fails a gate takes another legal form instead', () => {
    const pool = [
      cand('x-req', { ...R, content_identity: 'X', authority_eligible: false }),
      cand('x-alt', { content_identity: 'X', token_count: 30 }),
      cand('d1'),
    ];
    const strict = compileContext(req(1000), pool, strictPolicy());
    expect(admittedIds(strict)).toEqual(['d1', 'x-alt']);
    expect(entry(strict, 'x-alt')).toMatchObject({ decision: 'ADMITTED', reason_detail: 'required' });
  });

  it('a named candidate that fails a gate: success the validator rejects, or a refusal', () => {
    const pool = [cand('n1', { requirement: 'PREFERRED', scope_eligible: false }), cand('d1')];
    const request = req(1000, { required_ids: ['n1'] });
    const omitted = compileContext(request, pool, policy());
    expect(omitted.result.success).toBe(true);
    expect(validateBundle(omitted.bundle!, request, pool)).toEqual([
      'explicitly required candidate absent: n1',
    ]);
    expect(compileContext(request, pool, strictPolicy()).result.failure).toMatchObject({
      reason: 'REQUIRED_INELIGIBLE',
      blocking_ids: ['n1'],
      diagnostic: 'required n1: scope_ineligible',
    });
  });

  it('a group split by promotion is kept whole in refuse mode', () => {
    const g = { requirement: 'PREFERRED' as const, group_id: 'G', group_required: true };
    // g2 earns nothing (relevance 0.1, no coverage): the reference admits g1 alone as REQUIRED.
    const pool = [cand('g1', { ...g }), cand('g2', { ...g, relevance: 0.1 })];
    const request = req(1000, { required_ids: ['g1'] });
    const omitted = compileContext(request, pool, policy());
    expect(admittedIds(omitted)).toEqual(['g1']);
    expect(validateBundle(omitted.bundle!, request, pool)).toEqual(['required group partially admitted: G']);
    const strict = compileContext(request, pool, strictPolicy());
    expect(admittedIds(strict)).toEqual(['g1', 'g2']);
    expect(entry(strict, 'g2')).toMatchObject({ priority_band: 'REQUIRED', reason_detail: 'required' });
  });
});
