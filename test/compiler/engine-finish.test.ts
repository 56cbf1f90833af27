import { describe, expect, it } from 'vitest';
import { compileContext, renderBundleText, validateResult } from '../../src/compiler/index.js';
import { cand, policy, rendered, req } from '../helpers/pool.js';
import { admittedIds, entry } from '../helpers/trace.js';

describe('layout by role', () => {
  it('orders by the policy role list, unknown roles last, then id', () => {
    const out = compileContext(
      req(10_000),
      [
        cand('t', { order_role: 'task' }),
        cand('z', { order_role: 'mystery' }),
        cand('i2', { order_role: 'instruction' }),
        cand('s', { order_role: 'support' }),
        cand('e', { order_role: 'evidence' }),
        cand('i1', { order_role: 'instruction' }),
        cand('a', { order_role: 'tool' }),
      ],
      policy(),
    );
    expect(admittedIds(out)).toEqual(['i1', 'i2', 't', 'e', 's', 'a', 'z']);
    expect(out.bundle?.items.map((i) => i.position)).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(entry(out, 'a').position).toBe(5);
  });

  it('follows the policy order, not a fixed one', () => {
    const pool = [cand('t', { order_role: 'task' }), cand('i', { order_role: 'instruction' })];
    expect(
      admittedIds(compileContext(req(1000), pool, policy({ order_roles: ['task', 'instruction'] }))),
    ).toEqual(['t', 'i']);
  });
});

describe('rendered cost', () => {
  it('charges each item with its decoration, the separators and the header', () => {
    const out = compileContext(
      req(1000),
      [
        cand('a', { requirement: 'MANDATORY', token_count: 60 }),
        cand('b', { requirement: 'MANDATORY', token_count: 40 }),
        cand('c', { token_count: 150 }),
      ],
      policy(),
    );
    expect(out.result.bundle_tokens).toBe(265);
    expect(out.bundle?.items.map((i) => i.token_count)).toEqual([63, 43, 153]);
  });
});

describe('render-overrun repair', () => {
  const pool = [
    cand('m', { requirement: 'MANDATORY', token_count: 60, order_role: 'instruction' }),
    cand('d1', { relevance: 0.9, token_count: 50, order_role: 'tool' }),
    cand('d2', { relevance: 0.5, token_count: 50, order_role: 'evidence' }),
  ];
  // Admission prices 160 <= 170; the rendering costs 175.
  const budget = 170;

  it('drops the last DISCRETIONARY item in render order, not the last admitted', () => {
    expect(rendered(60, 50, 50)).toBeGreaterThan(budget);
    const out = compileContext(req(budget), pool, policy());
    expect(admittedIds(out)).toEqual(['m', 'd2']);
    expect(out.result.bundle_tokens).toBe(rendered(60, 50));
    expect(entry(out, 'd1')).toMatchObject({
      decision: 'REJECTED_BUDGET',
      reason_code: 'repair-drop',
      reason_detail: 'removed by render-overrun repair',
      position: null,
      budget_before: 110,
      budget_after: 60,
    });
  });

  it('never drops an item another live item depends on', () => {
    const held = [
      pool[0]!,
      cand('d1', { ...pool[1]!, depends_on: [] }),
      cand('d2', { ...pool[2]!, depends_on: ['d1'] }),
    ];
    const out = compileContext(req(budget), held, policy());
    expect(admittedIds(out)).toEqual(['m', 'd1']);
    expect(entry(out, 'd2').reason_code).toBe('repair-drop');
  });

  it('drops a required group as a whole', () => {
    const g = { group_id: 'G', group_required: true };
    const grouped = [pool[0]!, cand('d1', { ...pool[1]!, ...g }), cand('d2', { ...pool[2]!, ...g })];
    const out = compileContext(req(budget), grouped, policy());
    expect(admittedIds(out)).toEqual(['m']);
  });

  it('clears pulled_in_by of a dropped dependency, so the v2 trace stays valid (our choice, spec 20)', () => {
    const chain = [
      cand('m', { requirement: 'MANDATORY', token_count: 100, order_role: 'instruction' }),
      cand('r', { relevance: 0.9, token_count: 10, order_role: 'tool', depends_on: ['p'] }),
      cand('p', { relevance: 0.1, token_count: 10, order_role: 'evidence' }),
    ];
    const request = req(120);
    const out = compileContext(request, chain, policy());
    expect(admittedIds(out)).toEqual(['m']);
    expect(entry(out, 'p')).toMatchObject({ reason_code: 'repair-drop', pulled_in_by: [] });
    expect(validateResult(out.result, request, chain)).toEqual([]);
  });

  it('refuses when nothing can be dropped', () => {
    const out = compileContext(
      req(200),
      [
        cand('m1', { requirement: 'MANDATORY', token_count: 100 }),
        cand('m2', { requirement: 'MANDATORY', token_count: 100 }),
      ],
      policy(),
    );
    expect(out.result.failure).toMatchObject({
      reason: 'INSUFFICIENT_BUDGET',
      blocking_ids: ['m1', 'm2'],
      budget_used: 200,
      diagnostic: `rendered ${rendered(100, 100)} exceeds budget 200 with no legal repair`,
    });
  });

  it('does not repair under any other repair policy', () => {
    const out = compileContext(req(budget), pool, policy({ repair: 'none' }));
    expect(out.result.failure).toMatchObject({
      reason: 'INSUFFICIENT_BUDGET',
      blocking_ids: ['d1', 'd2', 'm'],
      budget_used: 160,
      diagnostic: `rendered ${rendered(60, 50, 50)} exceeds budget 170 with no legal repair`,
    });
  });
});

describe('the text renderer', () => {
  it('frames the contents joined by separators, without labels', () => {
    const out = compileContext(
      req(1000),
      [
        cand('a', { requirement: 'MANDATORY', content: 'first' }),
        cand('b', { requirement: 'MANDATORY', content: 'second' }),
      ],
      policy(),
    );
    expect(renderBundleText(out.bundle!)).toBe(
      '[CONTEXT BUNDLE]\nid: r-bundle\nitems: 2\n---\nfirst\n---\nsecond\n[/CONTEXT BUNDLE]\n',
    );
  });

  it('omits the body line when there is nothing to show', () => {
    const out = compileContext(req(1000), [], policy());
    expect(out.result.bundle_tokens).toBe(4);
    expect(renderBundleText(out.bundle!)).toBe(
      '[CONTEXT BUNDLE]\nid: r-bundle\nitems: 0\n[/CONTEXT BUNDLE]\n',
    );
  });
});

describe('a refusal before any decision', () => {
  it('names the missing ids and leaves the trace empty', () => {
    const out = compileContext(req(1000, { required_ids: ['ghost', 'a', 'ghost'] }), [cand('a')], policy());
    expect(out.result.failure).toMatchObject({
      reason: 'REQUIRED_SOURCE_UNAVAILABLE',
      blocking_ids: ['ghost'],
      budget_used: 0,
      diagnostic: 'explicitly required candidates absent: ghost',
    });
    expect(out.result.trace.entries).toEqual([]);
  });
});
