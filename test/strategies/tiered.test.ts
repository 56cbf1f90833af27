import { describe, expect, it } from 'vitest';
import type { ContextCandidate } from '../../src/compiler/index.js';
import { compileTiered, DEPTHS, tierOf } from '../../src/harness/kit/index.js';
import type { StrategyInput } from '../../src/harness/types.js';
import { cand, policy, rendered, req } from '../helpers/pool.js';

const input = (
  budget: number,
  candidates: readonly ContextCandidate[],
  annotations?: StrategyInput['annotations'],
): StrategyInput => ({ request: req(budget), candidates, policy: policy(), budget, annotations });
const admitted = (i: StrategyInput, mode: 'conversation' | 'task' | 'recall' = 'conversation') => {
  const s = compileTiered(i, mode);
  if ('refusal' in s) throw new Error(s.refusal.diagnostic);
  return { ids: [...s.admitted].sort(), extras: s.extras };
};

describe('the tier map', () => {
  it.each([
    [{ requirement: 'MANDATORY' as const }, 'head'],
    [{ requirement: 'REQUIRED' as const, order_role: 'tool' }, 'R'],
    [{ order_role: 'task' }, 'R'],
    [{ order_role: 'state' }, 'T6'],
    [{ order_role: 'tool' }, 'T4'],
    [{ order_role: 'support', requirement: 'PREFERRED' as const }, 'T4'],
    [{ requirement: 'PREFERRED' as const }, 'T5'],
    [{}, 'T3'],
  ])('%o goes to %s', (over, tier) => {
    expect(tierOf(cand('x', over), undefined)).toBe(tier);
  });

  it('a candidate’s own tier annotation wins; an unknown one is ignored', () => {
    expect(tierOf(cand('x'), new Map([['x', { tier: 'T6' }]]))).toBe('T6');
    expect(tierOf(cand('x'), new Map([['x', { tier: 'T9' }]]))).toBe('T3');
  });
});

describe('budget pressure sheds whole tiers, T4 first, then T3, T5, T6', () => {
  const pool = [
    cand('h', { requirement: 'MANDATORY', token_count: 100 }),
    cand('r', { order_role: 'task', token_count: 20 }),
    cand('t6', { order_role: 'state', token_count: 20 }),
    cand('t5', { requirement: 'PREFERRED', token_count: 20 }),
    cand('t3', { token_count: 20 }),
    cand('t4', { order_role: 'tool', token_count: 20 }),
  ];

  it.each([
    [rendered(100, 20, 20, 20, 20, 20), ['h', 'r', 't3', 't4', 't5', 't6'], []],
    [rendered(100, 20, 20, 20, 20), ['h', 'r', 't3', 't5', 't6'], ['T4']],
    [rendered(100, 20, 20, 20), ['h', 'r', 't5', 't6'], ['T4', 'T3']],
    [rendered(100, 20, 20), ['h', 'r', 't6'], ['T4', 'T3', 'T5']],
    [rendered(100, 20), ['h', 'r'], ['T4', 'T3', 'T5', 'T6']],
  ])('at %i tokens it keeps %o and drops %o', (budget, kept, dropped) => {
    const out = admitted(input(budget, pool));
    expect(out.ids).toEqual(kept);
    expect(out.extras).toMatchObject({ dropped_tiers: dropped, compaction_triggered: false });
  });

  it('never sheds R whole: it trims its lowest-priority items and says so', () => {
    const more = [...pool, cand('r2', { order_role: 'task', token_count: 20, relevance: 0.9 })];
    const out = admitted(input(rendered(100, 20), more));
    expect(out.ids).toEqual(['h', 'r2']);
    expect(out.extras).toMatchObject({
      dropped_tiers: ['T4', 'T3', 'T5', 'T6', 'T1'],
      compaction_triggered: true,
    });
  });

  it('refuses when the head alone does not fit', () => {
    const s = compileTiered(input(rendered(100) - 1, pool), 'conversation');
    expect('refusal' in s && s.refusal.reason).toBe('INSUFFICIENT_BUDGET');
  });

  it('applies no gates and knows no dependencies: it is measured as it is', () => {
    const stale = cand('stale', { freshness_eligible: false, depends_on: ['t4'], token_count: 20 });
    const out = admitted(input(rendered(100, 20, 20), [pool[0]!, pool[1]!, stale, pool[5]!]));
    // The stale note is admitted; its dependency, a T4 tool, is shed first.
    expect(out.ids).toEqual(['h', 'r', 'stale']);
  });
});

describe('the three modes differ in retrieval depth', () => {
  const many = [
    ...Array.from({ length: 10 }, (_, k) => cand(`ep-${k}`, { relevance: k / 10 })),
    ...Array.from({ length: 10 }, (_, k) => cand(`na-${k}`, { requirement: 'PREFERRED', relevance: k / 10 })),
  ];
  const count = (ids: string[], prefix: string) => ids.filter((id) => id.startsWith(prefix)).length;

  it('task favours episodic memory, recall favours narrative', () => {
    const budget = 100_000;
    const conversation = admitted(input(budget, many), 'conversation').ids;
    const task = admitted(input(budget, many), 'task').ids;
    const recall = admitted(input(budget, many), 'recall').ids;
    expect(count(task, 'ep-')).toBeGreaterThan(count(conversation, 'ep-'));
    expect(count(recall, 'na-')).toBeGreaterThan(count(conversation, 'na-'));
    expect(count(task, 'na-')).toBeLessThan(count(recall, 'na-'));
    expect(count(task, 'ep-')).toBe(DEPTHS.task.T3);
    // The deepest retrieval takes the most relevant items of the tier.
    expect(recall.filter((id) => id.startsWith('na-'))).toContain('na-9');
  });
});

describe('the trace says why each candidate is out, and names no gate (the system applies none)', () => {
  it('beyond its tier`s depth, its tier shed, trimmed from the recent turns', () => {
    const pool = [
      cand('h', { requirement: 'MANDATORY', token_count: 20 }),
      cand('r1', { order_role: 'task', token_count: 20, relevance: 0.9 }),
      cand('r2', { order_role: 'task', token_count: 400, relevance: 0.1, scope_eligible: false }),
      cand('t4', { order_role: 'tool', token_count: 30 }),
      ...Array.from({ length: DEPTHS.conversation.T3 + 1 }, (_, k) =>
        cand(`e${k}`, { relevance: 1 - k / 10 }),
      ),
    ];
    // Too small for everything: T4 and T3 go whole, then the lowest recent turn (r2).
    const s = compileTiered(input(rendered(20, 20) + 10, pool), 'conversation');
    const reasons = Object.fromEntries(
      (s.trace ?? []).map((e) => [e.candidate_id, [e.decision, e.reason_code]]),
    );
    expect(reasons[`e${DEPTHS.conversation.T3}`]).toEqual(['REJECTED_BUDGET', 'beyond-depth']);
    expect(reasons.e0).toEqual(['REJECTED_BUDGET', 'tier-shed']);
    expect(reasons.t4).toEqual(['REJECTED_BUDGET', 'tier-shed']);
    expect(reasons.r2).toEqual(['REJECTED_BUDGET', 'compaction']);
    expect(reasons.h).toEqual(['ADMITTED', 'admitted']);
  });
});
