import { describe, expect, it } from 'vitest';
import type { StrategyInput } from '../../src/harness/types.js';
import cheapestForm from '../../strategies/cheapest-form.js';
import gated from '../../strategies/gated.js';
import { asBundle, measured } from '../helpers/compiled.js';
import { cand, policy, rendered, req } from '../helpers/pool.js';

const input = (budget: number, candidates: StrategyInput['candidates']): StrategyInput => ({
  request: req(budget),
  candidates,
  policy: policy(),
  budget,
});

describe('cheapest-form: the gated greedy over every legal form', () => {
  // One content in three forms: the default (full) is dear, the compact one is stale, the anchor
  // is legal and cheapest.
  const obs = { content_identity: 'obs' };
  const pool = [
    cand('obs-full', { ...obs, token_count: 600 }),
    cand('obs-compact', { ...obs, token_count: 100, freshness_eligible: false, is_default_form: false }),
    cand('obs-anchor', { ...obs, token_count: 40, form_rank: 1, is_default_form: false }),
    cand('note', { relevance: 0.9, token_count: 50 }),
  ];

  it('takes the cheapest legal form, where the gated baseline can only see the default', () => {
    const budget = rendered(40, 50);
    expect(asBundle(measured(cheapestForm, input(budget, pool))).admitted).toEqual(['note', 'obs-anchor']);
    expect(asBundle(measured(gated, input(budget, pool))).admitted).toEqual(['note']);
  });

  it('never admits a form that fails a gate, however cheap', () => {
    const stale = pool.map((c) => (c.candidate_id === 'obs-anchor' ? { ...c, scope_eligible: false } : c));
    expect(asBundle(measured(cheapestForm, input(10_000, stale))).admitted).toEqual(['note', 'obs-full']);
  });

  it('is scored like every other strategy: the harness prices and hashes its selection', () => {
    const out = asBundle(measured(cheapestForm, input(10_000, pool)));
    expect(out.renderedTokens).toBe(rendered(40, 50));
    expect(out.record.bundle_hash).toMatch(/^[0-9a-f]{64}$/);
  });
});
