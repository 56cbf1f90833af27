import { describe, expect, it } from 'vitest';
import type { ContextCandidate, ContextRequest } from '../../src/compiler/index.js';
import type { CaseLedger, Selection } from '../../src/harness/types.js';
import oracle from '../../strategies/oracle.js';
import { asError, measured } from '../helpers/compiled.js';
import { cand, EVERY_CLASS, ledger, policy, req } from '../helpers/pool.js';

const input = (
  budget: number,
  candidates: ContextCandidate[],
  truth: CaseLedger,
  over: Partial<ContextRequest> = {},
) => ({ request: req(budget, over), candidates, policy: policy(), budget, ledger: truth });

const run = (...args: Parameters<typeof input>): Selection => oracle.assemble(input(...args));

/** The admitted ids, sorted (the harness orders the bundle). */
function admitted(sel: Selection): string[] {
  if ('refusal' in sel) throw new Error(`refused ${sel.refusal.reason}`);
  return [...sel.admitted].sort();
}

const refusal = (sel: Selection) =>
  'refusal' in sel ? { reason: sel.refusal.reason, blocking_ids: sel.refusal.blocking_ids } : null;

/** A form of `identity`: representation name, completeness rank, token count. */
const form = (id: string, identity: string, rep: string, rank: number, tokens: number, over = {}) =>
  cand(id, {
    content_identity: identity,
    representation_id: rep,
    form_rank: rank,
    token_count: tokens,
    is_default_form: rep === 'full',
    ...over,
  });

describe('oracle: must identities in sorted order, then should ones', () => {
  it('takes every must and should identity and nothing optional, distractor, harmful or unlisted', () => {
    const pool = ['m1', 'm2', 's1', 'o1', 'd1', 'h1', 'u1'].map((id) => cand(id, { relevance: 1 }));
    expect(admitted(run(10_000, pool, EVERY_CLASS))).toEqual(['m1', 'm2', 's1']);
  });

  it('takes the musts before any should', () => {
    const pool = [cand('a-sh', { token_count: 50 }), cand('z-must')];
    // z-must: 13 + 4 = 17; + a-sh: 13 + 53 + 1 + 4 = 71 > 60, skipped. Had the should (sorted
    // first) gone first, it would render 57 and leave no room for the must.
    expect(admitted(run(60, pool, ledger({ 'a-sh': 'should', 'z-must': 'must' })))).toEqual(['z-must']);
  });

  it('takes the musts in sorted identity order', () => {
    const pool = [cand('m-b', { token_count: 50 }), cand('m-a')];
    // m-a first (17), then m-b: 13 + 53 + 1 + 4 = 71 > 60, so m-b is the one that does not fit;
    // m-b first would have fitted (57) and blamed m-a
    expect(refusal(run(60, pool, ledger({ 'm-a': 'must', 'm-b': 'must' })))).toEqual({
      reason: 'INSUFFICIENT_BUDGET',
      blocking_ids: ['m-b'],
    });
  });

  it('skips a should that does not fit, without refusing, and goes on in sorted order', () => {
    const pool = [
      cand('m'),
      cand('s-a', { token_count: 100 }),
      cand('s-b', { token_count: 40 }),
      cand('s-c'),
    ];
    const truth = ledger({ m: 'must', 's-a': 'should', 's-b': 'should', 's-c': 'should' });
    // m: 17. +s-a: 13 + 103 + 1 + 4 = 121, never fits below. +s-b: 13 + 43 + 1 + 4 = 61.
    // +s-c after s-b: 13 + 43 + 13 + 2 + 4 = 75.
    expect(admitted(run(80, pool, truth))).toEqual(['m', 's-b', 's-c']);
    // at 70: s-b (61) comes before s-c and leaves it out (75 > 70); s-c first would have taken 31
    expect(admitted(run(70, pool, truth))).toEqual(['m', 's-b']);
  });
});

describe('oracle: the minimum form when a legal one exists, else the cheapest eligible form', () => {
  const forms = (over: Partial<ContextCandidate> = {}) => [
    form('inc-full', 'inc', 'full', 3, 100),
    form('inc-compact', 'inc', 'compact', 2, 40, over),
    form('inc-ref', 'inc', 'reference', 0, 10),
  ];

  it('takes the ledger minimum (a non-default form) over a cheaper one', () => {
    expect(admitted(run(1000, forms(), ledger({ inc: ['must', 'compact'] })))).toEqual(['inc-compact']);
  });

  it('falls back to the cheapest eligible form when the minimum form is not legal', () => {
    // stale compact, or compact below its floor (2 < 3): the 10-token reference wins over 100-token full
    const stale = forms({ freshness_eligible: false });
    const floored = forms({ min_rank: 3 });
    expect(admitted(run(1000, stale, ledger({ inc: ['must', 'compact'] })))).toEqual(['inc-ref']);
    expect(admitted(run(1000, floored, ledger({ inc: ['should', 'compact'] })))).toEqual(['inc-ref']);
  });

  it('breaks a token-count tie by id, among the minimum forms or among all eligible forms', () => {
    const pool = [
      form('x-full', 'x', 'full', 3, 100),
      form('x-b', 'x', 'anchor', 1, 10),
      form('x-a', 'x', 'anchor', 1, 10),
      form('x-c', 'x', 'anchor', 1, 30),
    ];
    expect(admitted(run(1000, pool, ledger({ x: ['must', 'anchor'] })))).toEqual(['x-a']);
    // no 'compact' form exists: all eligible forms compete, 10 tokens, then id
    expect(admitted(run(1000, pool, ledger({ x: ['must', 'compact'] })))).toEqual(['x-a']);
  });
});

describe('oracle: the required group and dependency closures come along', () => {
  const g = { group_id: 'g', group_required: true };

  it('brings every member of the required group (eligible or not) and each one closure', () => {
    const pool = [
      cand('claim', { ...g, depends_on: ['dep-y'] }),
      cand('exc-1', { ...g, depends_on: ['dep-x'] }),
      cand('exc-2', { ...g, scope_eligible: false }),
      cand('dep-x', { depends_on: ['dep-z'] }),
      cand('dep-y'),
      cand('dep-z'),
      cand('other'),
    ];
    expect(admitted(run(10_000, pool, ledger({ claim: 'must' })))).toEqual([
      'claim',
      'dep-x',
      'dep-y',
      'dep-z',
      'exc-1',
      'exc-2',
    ]);
  });

  it('does not follow a group that is not required', () => {
    const pool = [cand('loose', { group_id: 'h', group_required: false }), cand('mate', { group_id: 'h' })];
    expect(admitted(run(10_000, pool, ledger({ loose: 'must' })))).toEqual(['loose']);
  });

  it('counts a shared dependency once', () => {
    const pool = [cand('a', { depends_on: ['d'] }), cand('b', { depends_on: ['d'] }), cand('d')];
    // a + d render 31; b adds only itself: 3 x 13 + 2 + 4 = 45
    expect(admitted(run(45, pool, ledger({ a: 'must', b: 'must' })))).toEqual(['a', 'b', 'd']);
  });

  it('accepts the whole addition or nothing: a must whose closure overruns refuses', () => {
    const pool = [cand('a', { depends_on: ['dep'] }), cand('dep', { token_count: 100 })];
    // a alone would render 17, but a + dep = 13 + 103 + 1 + 4 = 121 > 50
    expect(refusal(run(50, pool, ledger({ a: 'must' })))).toEqual({
      reason: 'INSUFFICIENT_BUDGET',
      blocking_ids: ['a'],
    });
    // a should whose closure overruns is skipped; the bundle is empty, not a refusal
    expect(admitted(run(50, pool, ledger({ a: 'should' })))).toEqual([]);
  });
});

describe('oracle: named refusals', () => {
  const mandLow = form('mand-low', 'mand', 'reference', 0, 10, { requirement: 'MANDATORY', min_rank: 2 });

  it('refuses REQUIRED_SOURCE_UNAVAILABLE for a missing required id, before anything else', () => {
    const pool = [cand('m'), mandLow];
    const sel = run(1000, pool, ledger({ m: 'must' }), { required_ids: ['m', 'ghost'] });
    expect(refusal(sel)).toEqual({ reason: 'REQUIRED_SOURCE_UNAVAILABLE', blocking_ids: ['ghost'] });
  });

  it('refuses NO_LEGAL_REPRESENTATION when a raw-MANDATORY content has no eligible form', () => {
    // whatever the ledger says of it (here it does not list it at all)
    expect(refusal(run(1000, [cand('m'), mandLow], ledger({ m: 'must' })))).toEqual({
      reason: 'NO_LEGAL_REPRESENTATION',
      blocking_ids: ['mand'],
    });
  });

  it('does not refuse for a content with an eligible form, nor for an illegal required id not raw MANDATORY', () => {
    // mand has an eligible (discretionary) form; need (raw REQUIRED, no legal form) is only asked for
    const pool = [
      mandLow,
      form('mand-full', 'mand', 'full', 3, 10),
      cand('need', { requirement: 'REQUIRED', min_rank: 4 }),
    ];
    const sel = run(1000, pool, ledger({ mand: 'must' }), { required_ids: ['need'] });
    expect(admitted(sel)).toEqual(['mand-full']);
  });

  it('throws without a ledger, which the harness turns into an error row', () => {
    const bare = { request: req(100), candidates: [cand('m')], policy: policy(), budget: 100 };
    expect(oracle.readsLedger).toBe(true);
    expect(() => oracle.assemble(bare)).toThrow(/ledger/);
    expect(asError(measured(oracle, bare)).message).toMatch(/oracle threw: .*ledger/);
  });
});
