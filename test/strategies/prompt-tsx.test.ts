import { describe, expect, it } from 'vitest';
import { compileAwaited } from '../../src/harness/session/index.js';
import type { Strategy, StrategyInput } from '../../src/harness/types.js';
import promptTsx from '../../strategies/prompt-tsx.js';
import { asBundle, asRefusal } from '../helpers/compiled.js';
import { cand, strategyInputAt as input, rendered } from '../helpers/pool.js';
import { referenceInputs } from '../helpers/reference-inputs.js';

// The strategy answers by a promise (the renderer is asynchronous); the harness awaits it.
const peer = promptTsx as unknown as Strategy;
const measured = (i: StrategyInput) => compileAwaited(peer, i);
const admitted = async (i: StrategyInput) => {
  const sel = await promptTsx.assemble(i);
  if (!('admitted' in sel)) throw new Error(`refused: ${JSON.stringify(sel)}`);
  return sel;
};

describe('prompt-tsx: the pruning order its README documents', () => {
  // README "Prioritization": lowest priority pruned first, and priorities are local to the tree,
  // so every child of a lower-priority parent goes before any child of a higher one (its
  // example prunes B->A->D->C). Here the parent is the requirement class, the child's priority
  // its relevance: c (DISCRETIONARY, 0.2), d (DISCRETIONARY, 0.8), a (PREFERRED, 0.1), b
  // (PREFERRED, 0.9) go in that order, although d is far more relevant than a.
  const pool = [
    cand('a', { requirement: 'PREFERRED', relevance: 0.1 }),
    cand('b', { requirement: 'PREFERRED', relevance: 0.9 }),
    cand('c', { relevance: 0.2 }),
    cand('d', { relevance: 0.8 }),
  ];
  // Survivors with k items, in the rendered order: classes strongest first, relevance inside.
  const survivors = ['b', 'a', 'd', 'c'];
  const tens = (k: number) => Array.from({ length: k }, () => 10);

  it.each([4, 3, 2, 1])(
    'at the price of %i items, the %i highest priorities survive, in declared order',
    async (k) => {
      const sel = await admitted(input(rendered(...tens(k)), pool));
      expect(sel.admitted).toEqual(survivors.slice(0, k));
      expect(sel.layout).toBe('own');
      // The renderer counted with the study's ruler: its count is the bundle's price.
      expect(sel.extras?.rendered_tokens).toBe(rendered(...tens(k)));
    },
  );

  it.each([4, 3, 2, 1])('one token short of %i items, the lowest priority of them is pruned', async (k) => {
    const sel = await admitted(input(rendered(...tens(k)) - 1, pool));
    expect(sel.admitted).toEqual(survivors.slice(0, k - 1));
  });

  it('an id the request names is REQUIRED, above every PREFERRED content', async () => {
    const sel = await admitted(input(rendered(10), pool, ['c']));
    expect(sel.admitted).toEqual(['c']);
  });

  it('the harness prices what survives at the renderer own count, within the budget', async () => {
    const out = asBundle(await measured(input(rendered(10, 10, 10) + 2, pool)));
    expect([...out.admitted].sort()).toEqual(['a', 'b', 'd']);
    expect(out.renderedTokens).toBe(rendered(10, 10, 10));
  });

  it('BudgetExceededError (nothing left to prune) is a refusal with its message, not a crash', async () => {
    // Under this tree only a budget below zero leaves prompt-tsx nothing to prune: with a
    // header that does not fit, it prunes the message itself and renders nothing.
    const out = asRefusal(await measured(input(-1, pool)));
    expect(out.reason).toBe('BUDGET_EXCEEDED');
    const empty = await admitted(input(rendered() - 1, pool));
    expect(empty.admitted).toEqual([]);
  });
});

describe('prompt-tsx on every reference case and budget', () => {
  const cells = referenceInputs(0).map(({ label, input }) => [label, input] as const);

  it.each(cells)('%s: answers, within the budget, the same twice', async (_n, i) => {
    const out = await measured(i);
    expect(out.outcome, out.outcome === 'error' ? out.message : '').not.toBe('error');
    expect(await measured(i)).toEqual(out);
    // Its tokenizer is the study's ruler and prompt-tsx guarantees count <= budget.
    if (out.outcome === 'bundle') expect(out.renderedTokens).toBeLessThanOrEqual(i.budget);
    else expect(out.outcome).toBe('refusal');
  });
});
