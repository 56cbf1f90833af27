import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import langchainReorder, { litmReordering } from '../../strategies/langchain-reorder.js';
import { runs } from '../helpers/arbitrary.js';
import { asRefusal, measured } from '../helpers/compiled.js';
import { admittedOf as admitted, cand, strategyInputAt as input } from '../helpers/pool.js';
import { referenceInputs } from '../helpers/reference-inputs.js';

const SEED = 2021;

describe("LongContextReorder's documented example", () => {
  it("reorders the how-to notebook's ten documents as the notebook shows", () => {
    // langchain-ai/langchain@6e4e54279d48, docs/docs/how_to/long_context_reorder.ipynb: the
    // retriever's answer, most relevant first, and the transformer's output
    const retrieved = [
      'This is a document about the Boston Celtics',
      'The Celtics are my favourite team.',
      'L. Kornet is one of the best Celtics players.',
      'The Boston Celtics won the game by 20 points',
      'Larry Bird was an iconic NBA player.',
      'Elden Ring is one of the best games in the last 15 years.',
      'Basquetball is a great sport.',
      'I simply love going to the movies',
      'Fly me to the moon is one of my favourite songs.',
      'This is just a random text.',
    ];
    expect(litmReordering(retrieved)).toEqual([
      'The Celtics are my favourite team.',
      'The Boston Celtics won the game by 20 points',
      'Elden Ring is one of the best games in the last 15 years.',
      'I simply love going to the movies',
      'This is just a random text.',
      'Fly me to the moon is one of my favourite songs.',
      'Basquetball is a great sport.',
      'Larry Bird was an iconic NBA player.',
      'L. Kornet is one of the best Celtics players.',
      'This is a document about the Boston Celtics',
    ]);
  });

  it(`puts the two most relevant at the ends and the least relevant in the middle (seed ${SEED})`, () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 40 }), (n) => {
        const ranks = litmReordering(Array.from({ length: n }, (_, k) => k));
        expect([...ranks].sort((a, b) => a - b)).toEqual(Array.from({ length: n }, (_, k) => k));
        if (n >= 2) expect([ranks[0], ranks[n - 1]].sort()).toEqual([0, 1]);
        // ranks rise to a single peak (the least relevant) and fall after it
        const peak = ranks.indexOf(n - 1);
        for (let k = 1; k <= peak; k++) expect(ranks[k]).toBeGreaterThan(ranks[k - 1] as number);
        for (let k = peak + 1; k < n; k++) expect(ranks[k]).toBeLessThan(ranks[k - 1] as number);
      }),
      { seed: SEED, numRuns: runs(40, 400) },
    );
  });
});

describe("langchain-reorder: documents alone are topk's selection, laid out by the transformer", () => {
  const five = ['a', 'b', 'c', 'd', 'e'].map((id, k) => cand(id, { relevance: 0.9 - k / 10 }));

  it('lays five items out most relevant first, second last, least in the middle', () => {
    // five items of 10 render 5 x 13 + 4 + 4 = 73
    const s = langchainReorder.assemble(input(73, five));
    expect([admitted(s), 'refusal' in s ? undefined : s.layout]).toEqual([['a', 'c', 'e', 'd', 'b'], 'own']);
  });

  it('admits exactly what topk admits: four of the five fit in 59', () => {
    const s = langchainReorder.assemble(input(59, five));
    // ranked a b c d; reversed d c b a: d, then c behind, b in front, a behind
    expect(admitted(s)).toEqual(['b', 'd', 'c', 'a']);
  });

  it('gives each admitted entry of its trace the position it has in its own layout', () => {
    const s = langchainReorder.assemble(input(73, five));
    const pos = Object.fromEntries((s.trace ?? []).map((e) => [e.candidate_id, e.position]));
    expect(pos).toEqual({ a: 0, c: 1, e: 2, d: 3, b: 4 });
    const before = Object.fromEntries((s.trace ?? []).map((e) => [e.candidate_id, e.budget_before]));
    // 73 - header 4 = 69 before a; 13 for a; then 14 (item and separator) each
    expect(before).toEqual({ a: 69, c: 56, e: 42, d: 28, b: 14 });
  });

  it('refuses as topk does when even the empty bundle overruns', () => {
    expect(asRefusal(measured(langchainReorder, input(3, five))).reason).toBe('INSUFFICIENT_BUDGET');
  });
});

describe('langchain-reorder: the prompt a LangChain user builds', () => {
  const docs = ['a', 'b', 'c', 'd', 'e'].map((id, k) => cand(id, { relevance: 0.9 - k / 10 }));
  const system = cand('s', { order_role: 'instruction', relevance: 0 });
  const question = cand('q', { order_role: 'task', relevance: 0 });

  it('the system message first, the question last, the retrieved documents reordered between', () => {
    const s = langchainReorder.assemble(input(1_000, [question, ...docs, system]));
    expect(admitted(s)).toEqual(['s', 'a', 'c', 'e', 'd', 'b', 'q']);
  });

  it('keeps the system message and the question, however irrelevant, and retrieves what they leave room for', () => {
    // 7 items of 10 render 7 x 13 + 6 + 4 = 101; at 73 only five fit: s, q and the three most relevant.
    const s = langchainReorder.assemble(input(73, [question, ...docs, system]));
    expect(admitted(s)).toEqual(['s', 'a', 'c', 'b', 'q']);
  });
});

describe('langchain-reorder on every reference input', () => {
  it('never errs nor overruns, puts instructions first and the task last, and answers the same twice', () => {
    for (const { label, input: i } of referenceInputs()) {
      const first = langchainReorder.assemble(i);
      expect(JSON.stringify(langchainReorder.assemble(i)), label).toBe(JSON.stringify(first));
      const mine = measured(langchainReorder, i);
      if (mine.outcome !== 'bundle') continue;
      expect(mine.renderedTokens, label).toBeLessThanOrEqual(i.budget);
      const role = new Map(i.candidates.map((c) => [c.candidate_id, c.order_role]));
      const roles = mine.admitted.map((id) => role.get(id));
      const firstOther = roles.findIndex((r) => r !== 'instruction');
      expect(roles.slice(firstOther < 0 ? roles.length : firstOther), label).not.toContain('instruction');
      const firstTask = roles.indexOf('task');
      if (firstTask >= 0) expect(new Set(roles.slice(firstTask)), label).toEqual(new Set(['task']));
    }
  });
});
