/**
 * The priompt peer against priompt's own promise (anysphere/priompt README): the prompt is
 * Prompt(p*), every scope with priority >= p* and no other, p* the lowest cutoff that fits.
 * Hand-counted pools show the cutoff (not a greedy fill), ties falling together, the rendered
 * order and the base-prompt refusal; random pools check the binary search against a linear scan
 * of every level; every reference case and budget runs without an error row or an overshoot.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { requestAt } from '../../src/harness/corpus/index.js';
import { generateCase } from '../../src/harness/generate/index.js';
import { costOf } from '../../src/harness/kit/index.js';
import type { Corpus, StrategyInput } from '../../src/harness/types.js';
import { BUDGETS } from '../../src/harness/vocabulary.js';
import priompt, { BASE_PRIORITY, priorityLevels, promptOf, renderAt } from '../../strategies/priompt.js';
import topk from '../../strategies/topk.js';
import { randomCase, runs } from '../helpers/arbitrary.js';
import { measured } from '../helpers/compiled.js';
import { shippedCorpus } from '../helpers/corpus.js';
import { inputAt } from '../helpers/generated.js';
import { cand, strategyInputAt as input, policy } from '../helpers/pool.js';

function answer(i: StrategyInput) {
  const sel = priompt.assemble(i);
  if ('refusal' in sel) throw new Error(`priompt refused: ${sel.refusal.diagnostic}`);
  return sel;
}
const kept = (i: StrategyInput) => [...answer(i).admitted];

// Each item of 10 declared tokens renders 13, a separator 1, the header 4: k items cost 14k + 3.
// Priority, highest first: m, r (classes), p1, p2 (PREFERRED by relevance), d1, d2.
const six = [
  cand('d1', { requirement: 'DISCRETIONARY', relevance: 1 }),
  cand('m', { requirement: 'MANDATORY', relevance: 0.1 }),
  cand('p2', { requirement: 'PREFERRED', relevance: 0.4 }),
  cand('r', { requirement: 'REQUIRED', relevance: 0.5 }),
  cand('d2', { requirement: 'DISCRETIONARY', relevance: 0.2 }),
  cand('p1', { requirement: 'PREFERRED', relevance: 0.9 }),
];

describe("priompt's cutoff: all scopes at or above p*, none below, p* the lowest that fits", () => {
  it.each([
    [4, []],
    [17, ['m']],
    [30, ['m']],
    [31, ['m', 'r']],
    [45, ['m', 'r', 'p1']],
    [59, ['m', 'r', 'p1', 'p2']],
    [86, ['m', 'r', 'p1', 'p2', 'd1']],
    [87, ['m', 'r', 'p1', 'p2', 'd1', 'd2']],
  ])('at %i tokens it keeps %o, class before relevance', (budget, want) => {
    expect(kept(input(budget, six))).toEqual(want);
  });

  it('cuts at a priority, not greedily: a big item blocks the smaller ones below it', () => {
    const pool = six.map((c) => (c.candidate_id === 'p1' ? { ...c, token_count: 100 } : c));
    // m and r cost 31; p1 would add 104 (135 > 60), so the cutoff stays at r and p2, d1, d2 go,
    // although each would fit on its own (topk, a greedy fill, takes them)
    expect(kept(input(60, pool))).toEqual(['m', 'r']);
    expect(topk.assemble(input(60, pool))).toMatchObject({ admitted: expect.arrayContaining(['p2', 'd1']) });
  });

  it('keeps or drops items of one priority together', () => {
    const tie = [cand('a', { relevance: 0.5 }), cand('b', { relevance: 0.5 }), cand('c', { relevance: 0.9 })];
    // c alone costs 17, c with a or b 31, all three 45: at 44 one of the tie would fit, neither is kept
    expect(kept(input(44, tie))).toEqual(['c']);
    expect(kept(input(45, tie))).toEqual(['c', 'a', 'b']);
  });

  it('puts a named id in the REQUIRED scope', () => {
    // d2 named: it outranks the PREFERRED items, so at 45 it is kept in place of p1
    expect(kept(input(45, six, ['d2']))).toEqual(['m', 'r', 'd2']);
  });

  it("lays the bundle out in priompt's rendered order and says so", () => {
    const out = answer(input(1000, six));
    expect([out.admitted, out.layout]).toEqual([['m', 'r', 'p1', 'p2', 'd1', 'd2'], 'own']);
  });

  it('searches the levels in halves: 4 class scopes + 6 items + base = 11 levels, 4 probes at most', () => {
    for (const budget of [4, 31, 59, 87]) {
      const extras = answer(input(budget, six)).extras as { levels: number; probes: number[] };
      expect(extras.levels).toBe(11);
      expect(extras.probes.length).toBeLessThanOrEqual(Math.ceil(Math.log2(11)));
    }
  });

  it("refuses with priompt's TooManyTokensForBasePriority message when the base prompt overruns", () => {
    // the header alone costs 4: the base prompt (BASE_PRIORITY) does not fit in 3
    const sel = priompt.assemble(input(3, six));
    expect(sel).toMatchObject({ refusal: { reason: 'INSUFFICIENT_BUDGET' } });
    const diagnostic = 'refusal' in sel ? sel.refusal.diagnostic : '';
    expect(diagnostic).toContain(
      'TooManyTokensForBasePriority: Base prompt estimated token count is 4 with 0 tokens reserved, which is higher than the limit 3.',
    );
    const out = measured(priompt, input(3, six));
    expect(out.outcome).toBe('refusal');
  });
});

describe('the binary search finds the cutoff a linear scan of every level finds (seed 2020)', () => {
  it('on random pools: p* is the lowest fitting level, and every level below it overruns', () => {
    console.log('priompt linear-scan property: seed 2020');
    fc.assert(
      fc.property(randomCase(14), ({ request, candidates }) => {
        const i = { request, candidates, policy: policy(), budget: request.usable_token_budget };
        const root = promptOf(i);
        const levels = priorityLevels(root);
        const fits = (level: number) => costOf(renderAt(root, level), i) <= i.budget;
        const lowest = levels.find(fits) ?? BASE_PRIORITY;
        const sel = priompt.assemble(i);
        if (!fits(BASE_PRIORITY)) {
          expect('refusal' in sel).toBe(true);
          return;
        }
        const cutoff = (sel.extras as { priority_cutoff: number }).priority_cutoff;
        expect(cutoff).toBe(lowest);
        expect('admitted' in sel && sel.admitted).toEqual(renderAt(root, lowest).map((c) => c.candidate_id));
      }),
      { seed: 2020, numRuns: runs(300, 10_000) },
    );
  });
});

/** Every case of a corpus at every budget: a bundle within the budget or a refusal, never an error. */
function everyCell(corpus: Corpus): number {
  let cells = 0;
  for (const c of corpus.cases)
    for (const level of BUDGETS) {
      const request = requestAt(c, level);
      const i = {
        request,
        candidates: c.candidates,
        policy: corpus.policy,
        budget: request.usable_token_budget,
      };
      const out = measured(priompt, i);
      const where = `${c.name}/${level}`;
      expect(out.outcome, where).not.toBe('error');
      if (out.outcome === 'bundle') expect(out.renderedTokens, where).toBeLessThanOrEqual(i.budget);
      expect(JSON.stringify(priompt.assemble(i)), `${where}: deterministic`).toBe(
        JSON.stringify(priompt.assemble(i)),
      );
      cells++;
    }
  return cells;
}

describe('every reference case and budget', () => {
  it.each(['compiler-v1', 'compiler-v2'])('corpus/%s', (name) => {
    const { corpus } = shippedCorpus(name);
    expect(everyCell(corpus)).toBe(corpus.cases.length * BUDGETS.length);
  });

  it('generated 200-candidate agent pools at three budgets', () => {
    for (let k = 0; k < runs(2, 20); k++) {
      const g = generateCase(`priompt-agent/${k}`, 200, 'generated', 'agent');
      for (const level of BUDGETS) {
        const i = inputAt(g, level);
        const out = measured(priompt, i);
        expect(out.outcome, `${k}/${level}`).not.toBe('error');
        if (out.outcome === 'bundle') expect(out.renderedTokens).toBeLessThanOrEqual(i.budget);
      }
    }
  });
});
