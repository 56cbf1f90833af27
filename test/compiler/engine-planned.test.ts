/**
 * Rendered pricing and planned forms (docs/compiler.md §17.5), on pools small enough to work out
 * by hand. Costs: each test item renders at its count + 3 (its decoration), separators cost 1,
 * the frame 4 (`rendered` in the pool helpers).
 */
import { describe, expect, it } from 'vitest';
import { compileContext, validateBundle, validateResult } from '../../src/compiler/index.js';
import { cand, policy, rendered, req, strictPolicy, v2Policy } from '../helpers/pool.js';
import { admittedIds, entry } from '../helpers/trace.js';

const M = { requirement: 'MANDATORY' as const };
const R = { requirement: 'REQUIRED' as const };
const P = { requirement: 'PREFERRED' as const, relevance: 0.9 };

describe('rendered pricing: admission charges what the bundle renders at', () => {
  // Ten PREFERRED items of 10: declared 100, rendered 10 x 13 + 9 + 4 = 143.
  const pool = Array.from({ length: 10 }, (_, k) => cand(`p${k}`, P));

  it('the reference admits on declared counts, overruns at render and, with nothing DISCRETIONARY, refuses', () => {
    const out = compileContext(req(120), pool, policy());
    expect(out.result.failure?.reason).toBe('INSUFFICIENT_BUDGET');
    expect(out.result.failure?.diagnostic).toBe(
      `rendered ${rendered(...pool.map(() => 10))} exceeds budget 120 with no legal repair`,
    );
  });

  it('rendered pricing admits what fits: 8 items render at 8 x 13 + 7 + 4 = 115 <= 120; a ninth would be 129', () => {
    const out = compileContext(req(120), pool, v2Policy());
    expect(admittedIds(out)).toEqual(['p0', 'p1', 'p2', 'p3', 'p4', 'p5', 'p6', 'p7']);
    expect(out.result.bundle_tokens).toBe(115);
  });

  it('the trace carries the real budget: the frame first, then 13 for the first item and 14 for each after', () => {
    const out = compileContext(req(120), pool, v2Policy());
    expect(entry(out, 'p0')).toMatchObject({ budget_before: 116, budget_after: 103, marginal_cost: 13 });
    expect(entry(out, 'p1')).toMatchObject({ budget_before: 103, budget_after: 89, marginal_cost: 14 });
    expect(entry(out, 'p7')).toMatchObject({ budget_after: 120 - 115 });
    // The ninth is priced at its rendered increment against what remains (5).
    expect(entry(out, 'p8')).toMatchObject({
      decision: 'REJECTED_BUDGET',
      marginal_cost: 14,
      budget_before: 5,
    });
    expect(validateResult(out.result, req(120), pool)).toEqual([]);
  });

  it('charges no separator before the first item even when the bundle starts with an optional one', () => {
    const out = compileContext(req(rendered(10)), [cand('only', P)], v2Policy());
    expect(admittedIds(out)).toEqual(['only']);
    expect(out.result.bundle_tokens).toBe(rendered(10));
  });
});

describe('planned forms: required content takes the cheapest legal forms found together', () => {
  // Two REQUIRED contents, each full (300) or a reference (10) that needs a shared tool (400).
  // Alone, reference + tool (413 + 404) beats nothing: full (303) is cheaper for each. Together,
  // two references and the tool render at 13 + 13 + 403 + 2 + 4 = 435; two fulls at 303 + 303 + 1 + 4 = 611.
  const pool = [
    cand('a-full', { ...R, content_identity: 'a', token_count: 300 }),
    cand('a-ref', { ...R, content_identity: 'a', token_count: 10, depends_on: ['tool'] }),
    cand('b-full', { ...R, content_identity: 'b', token_count: 300 }),
    cand('b-ref', { ...R, content_identity: 'b', token_count: 10, depends_on: ['tool'] }),
    cand('tool', { requirement: 'DISCRETIONARY', token_count: 400, relevance: 0.1 }),
  ];

  it('the reference takes each content`s cheapest form alone and refuses at 500', () => {
    expect(compileContext(req(500), pool, strictPolicy()).result.failure?.reason).toBe('INSUFFICIENT_BUDGET');
  });

  it('the plan shares the tool between both references: 435 tokens', () => {
    const out = compileContext(req(500), pool, v2Policy());
    expect(admittedIds(out)).toEqual(['a-ref', 'b-ref', 'tool']);
    expect(out.result.bundle_tokens).toBe(rendered(10, 10, 400));
    expect(entry(out, 'tool')).toMatchObject({ decision: 'ADMITTED', pulled_in_by: ['a-ref'] });
    expect(entry(out, 'a-full')).toMatchObject({ decision: 'REJECTED_ALTERNATIVE' });
  });

  it('with room for both fulls and nothing to gain, it still takes the cheaper plan', () => {
    expect(admittedIds(compileContext(req(5000), pool, v2Policy()))).toEqual(['a-ref', 'b-ref', 'tool']);
  });

  it('a MANDATORY content whose MANDATORY form fails a gate is placed in another legal form', () => {
    const mixed = [
      cand('m-full', { ...M, content_identity: 'm', freshness_eligible: false }),
      cand('m-compact', { content_identity: 'm', requirement: 'PREFERRED', token_count: 5 }),
    ];
    expect(compileContext(req(100), mixed, strictPolicy()).result.failure?.reason).toBe(
      'REQUIRED_INELIGIBLE',
    );
    expect(admittedIds(compileContext(req(100), mixed, v2Policy()))).toEqual(['m-compact']);
  });

  it('a required group with an ineligible member stays out whole; its contents come in other forms', () => {
    const grouped = [
      cand('g1', { ...R, content_identity: 'x', group_id: 'G', group_required: true }),
      cand('g2', { ...R, content_identity: 'y', group_id: 'G', group_required: true, scope_eligible: false }),
      cand('x-alt', { content_identity: 'x', requirement: 'DISCRETIONARY' }),
      cand('y-alt', { content_identity: 'y', requirement: 'DISCRETIONARY' }),
    ];
    const out = compileContext(req(1000), grouped, v2Policy());
    expect(admittedIds(out)).toEqual(['x-alt', 'y-alt']);
    expect(validateBundle(out.bundle!, req(1000), grouped)).toEqual([]);
  });
});

describe('planned forms refuse only when required content cannot fit, and say what would have to give', () => {
  it('names the dearest demands and the shortfall', () => {
    const pool = [cand('big', { ...M, token_count: 500 }), cand('small', { ...R, token_count: 20 })];
    // Plan: 503 + 24 = 527 after the 4-token frame and one separator; the budget leaves 296.
    const out = compileContext(req(300), pool, v2Policy());
    expect(out.result.failure).toMatchObject({
      reason: 'INSUFFICIENT_BUDGET',
      blocking_ids: ['big', 'small'],
      diagnostic:
        'required content needs 527 in the cheapest legal forms found, 231 over the 296 the budget of 300 ' +
        "leaves after the header's 4; the dearest, each with the separator before it: " +
        'mandatory big (big: 504), required small (small: 24)',
      budget_used: 4,
    });
  });

  it('refuses a named candidate that fails a gate, as refuse mode does', () => {
    const out = compileContext(
      req(100, { required_ids: ['n'] }),
      [cand('n', { authority_eligible: false })],
      v2Policy(),
    );
    expect(out.result.failure?.reason).toBe('REQUIRED_INELIGIBLE');
  });
});
