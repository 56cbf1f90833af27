import { describe, expect, it } from 'vitest';
import type { ContextCandidate, ContextRequest } from '../../src/compiler/index.js';
import { defaultFormPool, RANKED_DEPTH } from '../../src/harness/kit/index.js';
import type { Selection, Strategy, StrategyInput } from '../../src/harness/types.js';
import dump from '../../strategies/dump.js';
import gated from '../../strategies/gated.js';
import topk from '../../strategies/topk.js';
import weighted from '../../strategies/weighted.js';
import { asBundle, asRefusal, measured, recordOf } from '../helpers/compiled.js';
import { cand, policy, rendered, req } from '../helpers/pool.js';

const input = (budget: number, candidates: ContextCandidate[], over: Partial<ContextRequest> = {}) => ({
  request: req(budget, over),
  candidates,
  policy: policy(),
  budget,
});

/** The admitted ids, sorted: bundle order is the harness's business, not the strategy's. */
function admitted(s: Strategy, i: StrategyInput): string[] {
  const sel = s.assemble(i);
  if ('refusal' in sel) throw new Error(`${s.name} refused`);
  return [...sel.admitted].sort();
}

/** reason_code per candidate in the trace the harness records. */
function reasons(s: Strategy, i: StrategyInput): Record<string, string> {
  const entries = recordOf(measured(s, i)).trace.entries;
  return Object.fromEntries(entries.map((e) => [e.candidate_id, e.reason_code]));
}

const alt = (id: string, identity: string, over: Partial<ContextCandidate> = {}) =>
  cand(id, { content_identity: identity, representation_id: 'reference', form_rank: 0, ...over });

describe('the default-form pool', () => {
  it('is every default form, sorted by id, without the non-default alternatives', () => {
    const pool = [cand('c'), alt('a-ref', 'a', { is_default_form: false }), cand('a'), cand('b')];
    expect(defaultFormPool(pool).map((c) => c.candidate_id)).toEqual(['a', 'b', 'c']);
  });

  it('takes the cheapest form (token count, then id) of a content that declares no default', () => {
    const none = { is_default_form: false };
    const pool = [
      alt('k-c', 'k', { ...none, token_count: 30 }),
      alt('k-b', 'k', { ...none, token_count: 5 }),
      alt('k-a', 'k', { ...none, token_count: 5 }), // ties k-b on 5 tokens, wins on id
      alt('m-x', 'm', { ...none, token_count: 7 }),
      alt('m-y', 'm', { ...none, token_count: 3 }), // cheaper than m-x although a later id
      cand('z'),
    ];
    expect(defaultFormPool(pool).map((c) => c.candidate_id)).toEqual(['k-a', 'm-y', 'z']);
    // the fallback form reaches a baseline: 5+3 + 3+3 + 10+3 + 2 separators + 4 = 33
    expect(admitted(dump, input(33, pool))).toEqual(['k-a', 'm-y', 'z']);
  });
});

describe('dump: the default-form pool in id order, cut from the end', () => {
  it('keeps everything when the pool renders within the budget', () => {
    // three items of 10: 3 x 13 + 2 + 4 = 45
    expect(admitted(dump, input(45, [cand('c'), cand('a'), cand('b')]))).toEqual(['a', 'b', 'c']);
  });

  it('removes the last id, not the biggest item, until the rest fits', () => {
    const pool = [cand('c'), cand('b'), cand('a', { token_count: 50 })];
    // all: 53 + 13 + 13 + 2 + 4 = 85 > 80; without c: 53 + 13 + 1 + 4 = 71 <= 80. Dropping the big a
    // would have left b and c (31), but the cut follows the ids.
    expect(admitted(dump, input(80, pool))).toEqual(['a', 'b']);
    // at 60, 71 still overruns, so b goes too: a alone is 53 + 4 = 57
    expect(admitted(dump, input(60, pool))).toEqual(['a']);
  });

  it('cuts a MANDATORY item with a late id before discretionary ones', () => {
    const pool = [
      cand('z-mand', { requirement: 'MANDATORY', relevance: 1 }),
      cand('a-disc', { relevance: 0 }),
      cand('b-disc', { relevance: 0 }),
    ];
    // three items render 45 > 40; two render 31: the last id, z-mand, goes
    expect(admitted(dump, input(40, pool))).toEqual(['a-disc', 'b-disc']);
  });

  it('ends with an empty bundle of 4 tokens when no item fits', () => {
    // one item renders 10 + 3 + 4 = 17 > 16; the empty bundle is the header alone
    const out = measured(dump, input(16, [cand('a'), cand('b')]));
    const bundle = asBundle(out);
    expect([bundle.admitted, bundle.renderedTokens]).toEqual([[], 4]);
  });

  it('never sees a non-default form, even a cheaper one that would fit', () => {
    const pool = [
      cand('x-full', { content_identity: 'x', token_count: 100 }),
      alt('x-ref', 'x', { token_count: 5, is_default_form: false }),
    ];
    // x-full renders 107 > 50 and is cut; x-ref would render 12 but is not in the pool
    expect(admitted(dump, input(50, pool))).toEqual([]);
    expect(reasons(dump, input(50, pool))['x-ref']).toBe('not-default-form');
    expect(admitted(dump, input(107, pool))).toEqual(['x-full']);
  });
});

describe('topk: relevance descending, ties by id, greedy fill that skips and goes on', () => {
  const pool = [
    cand('a', { relevance: 0.2 }),
    cand('d', { relevance: 0.5 }),
    cand('c', { relevance: 0.5 }),
    cand('b', { relevance: 0.9 }),
  ];

  it('ranks by relevance and breaks ties by id', () => {
    // order b (0.9), c (0.5, c < d), d (0.5), a (0.2); two items of 10 render 31, three 45
    expect(admitted(topk, input(31, pool))).toEqual(['b', 'c']);
    expect(admitted(topk, input(45, pool))).toEqual(['b', 'c', 'd']);
  });

  it('skips an item that does not fit and admits a later, smaller one', () => {
    const three = [
      cand('a', { relevance: 0.9, token_count: 20 }),
      cand('b', { relevance: 0.8, token_count: 100 }),
      cand('c', { relevance: 0.1, token_count: 5 }),
    ];
    // a: 23 + 4 = 27; +b: 23 + 103 + 1 + 4 = 131 > 40, skipped; +c: 23 + 8 + 1 + 4 = 36 <= 40
    expect(admitted(topk, input(40, three))).toEqual(['a', 'c']);
  });

  it('publishes its ranking of contents: best form, the mandatory left out, ties by identity, at most RANKED_DEPTH', () => {
    const forms = [
      ...pool,
      // e's outline is its likelier form here; the task is mandatory and ranks nowhere.
      cand('e#full', { content_identity: 'e', relevance: 0.1 }),
      cand('e#outline', { content_identity: 'e', representation_id: 'outline', relevance: 0.6 }),
      cand('task', { requirement: 'MANDATORY', relevance: 1 }),
    ];
    const answer = topk.assemble(input(31, forms)) as Selection;
    expect(answer.extras?.ranked).toEqual(['b', 'e', 'c', 'd', 'a']);
    const many = Array.from({ length: RANKED_DEPTH + 5 }, (_, i) =>
      cand(`f${String(i).padStart(3, '0')}`, { relevance: 1 - i / 1000 }),
    );
    const long = (topk.assemble(input(31, many)) as Selection).extras?.ranked as string[];
    expect(long).toHaveLength(RANKED_DEPTH);
    expect(long.at(-1)).toBe(`f${String(RANKED_DEPTH - 1).padStart(3, '0')}`);
  });
});

describe('topk ignores gates, dependencies, groups and required_ids', () => {
  it('admits ineligible items on relevance alone', () => {
    const pool = [
      cand('out', { scope_eligible: false, relevance: 0.9 }),
      cand('stale', { freshness_eligible: false, relevance: 0.8 }),
      cand('ok', { relevance: 0.1 }),
    ];
    expect(admitted(topk, input(31, pool))).toEqual(['out', 'stale']); // two items of 10 = 31
  });

  it('admits an item without its dependency and a group member without its group', () => {
    const group = { group_id: 'g', group_required: true };
    const pool = [
      cand('a', { relevance: 0.9, depends_on: ['dep'] }),
      cand('dep', { relevance: 0.1 }),
      cand('g1', { relevance: 0.8, ...group }),
      cand('g2', { relevance: 0.2, ...group }),
    ];
    // ranking a, g1, g2, dep; the budget holds two items (31)
    expect(admitted(topk, input(31, pool))).toEqual(['a', 'g1']);
  });

  it('leaves out a required id that loses on relevance', () => {
    const pool = [cand('need', { relevance: 0.1, requirement: 'MANDATORY' }), cand('hi', { relevance: 0.9 })];
    expect(admitted(topk, input(17, pool, { required_ids: ['need'] }))).toEqual(['hi']); // one item: 17
  });
});

describe('weighted: relevance + 0.5 x class priority, raw class', () => {
  it.each([
    ['MANDATORY', 'REQUIRED'],
    ['REQUIRED', 'PREFERRED'],
    ['PREFERRED', 'DISCRETIONARY'],
  ] as const)('one class step (%s over %s) is worth exactly 0.5 relevance', (hi, lo) => {
    const pool = (r: number) => [
      cand('hi', { requirement: hi, relevance: 0 }),
      cand('lo', { requirement: lo, relevance: r }),
    ];
    // equal costs cancel; hi leads by 0.5 x 1 from priority. One item of 10 renders 17.
    expect(admitted(weighted, input(17, pool(0.45)))).toEqual(['hi']); // lo short by 0.05
    expect(admitted(weighted, input(17, pool(0.55)))).toEqual(['lo']); // lo ahead by 0.05
  });

  it('does not promote a required id', () => {
    const pool = [
      cand('x', { relevance: 0.9 }), // DISCRETIONARY: 0.9 + 0.5 x 1 = 1.4 (promoted to REQUIRED: 2.4)
      cand('y', { relevance: 0.5, requirement: 'PREFERRED' }), // 0.5 + 0.5 x 2 = 1.5
    ];
    expect(admitted(weighted, input(17, pool, { required_ids: ['x'] }))).toEqual(['y']);
  });
});

describe('weighted: the cost term is normalised by the budget', () => {
  // same class (+0.5 each). Alone they render 107 and 92; together 103 + 88 + 1 + 4 = 196, so at both
  // budgets below only the first ranked item is admitted and the second no longer fits.
  const pool = [
    cand('big', { relevance: 0.6, token_count: 100 }),
    cand('small', { relevance: 0.5, token_count: 85 }),
  ];

  it('ranks the same pool differently at two budgets', () => {
    // at 125: big 1.1 - 100/125 = 0.30, small 1.0 - 85/125 = 0.32 -> small
    expect(admitted(weighted, input(125, pool))).toEqual(['small']);
    // at 180: big 1.1 - 100/180 = 0.544, small 1.0 - 85/180 = 0.528 -> big
    expect(admitted(weighted, input(180, pool))).toEqual(['big']);
    // relevance alone takes big at both budgets: the flip is the cost term's
    expect(admitted(topk, input(125, pool))).toEqual(['big']);
  });

  it('divides by 1 at budget 0', () => {
    // With the ordinary 4-token header even the empty bundle overruns 0: the one failure the
    // study allows a baseline (spec 5.1, "only if the final selection exceeds the budget").
    const none = weighted.assemble(input(0, pool));
    expect('refusal' in none && none.refusal.reason).toBe('INSUFFICIENT_BUDGET');
    // Empty request id, task id, policy version, source kind and kind have no words: the header and
    // decorations cost 0, so a 0-token item renders at 0, and a second one adds a separator (1).
    // b-high 0.9 + 0.5 - 0/1 = 1.4 beats a-low 0.1 + 0.5 - 0/1 = 0.6; with 0/0 every score would be
    // NaN and the id order (a-low first) would decide.
    const bare = { token_count: 0, source_kind: '', kind: '' };
    const zero = [cand('a-low', { ...bare, relevance: 0.1 }), cand('b-high', { ...bare, relevance: 0.9 })];
    const i = { ...input(0, zero, { request_id: '', task_id: '' }), policy: policy({ policy_version: '' }) };
    expect(admitted(weighted, i)).toEqual(['b-high']);
  });
});

describe('gated: the default-form pool minus hard-gate failures, by relevance', () => {
  const pool = [
    cand('ok-hi', { relevance: 0.6 }),
    cand('ok-lo', { relevance: 0.2 }),
    cand('s', { relevance: 1, scope_eligible: false, freshness_eligible: false, form_rank: 0, min_rank: 2 }),
    cand('f', {
      relevance: 1,
      freshness_eligible: false,
      authority_eligible: false,
      form_rank: 0,
      min_rank: 2,
    }),
    cand('a', { relevance: 1, authority_eligible: false, form_rank: 0, min_rank: 2 }),
    cand('l', { relevance: 1, form_rank: 0, min_rank: 2 }),
  ];

  it('never admits a gated-out candidate, whatever its relevance or the budget', () => {
    expect(admitted(gated, input(10_000, pool))).toEqual(['ok-hi', 'ok-lo']);
    // one item (17): the more relevant eligible one
    expect(admitted(gated, input(17, pool))).toEqual(['ok-hi']);
  });

  it('records the first failing gate (scope, freshness, authority, floor) as reason_code', () => {
    const r = reasons(gated, input(10_000, pool));
    expect([r.s, r.f, r.a, r.l]).toEqual([
      'scope_ineligible',
      'freshness_ineligible',
      'authority_ineligible',
      'illegal_representation',
    ]);
    expect([r['ok-hi'], r['ok-lo']]).toEqual(['admitted', 'admitted']);
  });

  it('cannot see a non-default legal alternative', () => {
    const obs = [
      cand('obs-stale', { content_identity: 'obs', freshness_eligible: false }),
      cand('obs-fresh', { content_identity: 'obs', is_default_form: false }),
    ];
    expect(admitted(gated, input(1000, obs))).toEqual([]);
    const r = reasons(gated, input(1000, obs));
    expect([r['obs-stale'], r['obs-fresh']]).toEqual(['freshness_ineligible', 'not-default-form']);
  });
});

describe.each([dump, topk, weighted, gated])(
  '$name refuses only below the bundle frame; its trace covers every candidate',
  (s) => {
    const pool = [
      cand('instr', { requirement: 'MANDATORY', order_role: 'instruction', token_count: 40 }),
      cand('dep', { relevance: 0.1 }),
      cand('ev', { depends_on: ['dep'], group_id: 'g', group_required: true }),
      cand('ev2', { group_id: 'g', group_required: true, scope_eligible: false }),
      alt('ev-ref', 'ev', { is_default_form: false }),
      cand('stale', { freshness_eligible: false, relevance: 0.9 }),
    ];
    const ids = pool.map((c) => c.candidate_id).sort();

    it('at budget 3, below the 4-token frame, it fails: even the empty bundle overruns', () => {
      const out = measured(s, input(3, pool));
      expect(asRefusal(out).reason).toBe('INSUFFICIENT_BUDGET');
      expect(recordOf(out).trace.entries.map((e) => e.candidate_id)).toEqual(ids);
    });

    it.each([4, 30, rendered(40), 10_000])('at budget %i', (budget) => {
      const i = input(budget, pool, { required_ids: ['instr'] });
      const sel = s.assemble(i);
      expect('refusal' in sel).toBe(false);
      expect(Array.isArray((sel as { admitted: unknown }).admitted)).toBe(true);
      const out = measured(s, i);
      expect(asBundle(out).record.trace.entries.map((e) => e.candidate_id)).toEqual(ids);
    });
  },
);
