import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ContextCandidate } from '../../src/compiler/index.js';
import {
  bm25Selector,
  documentText,
  type Fill,
  HITS,
  ranking,
  splitPool,
} from '../../src/harness/kit/index.js';
import bm25 from '../../strategies/bm25.js';

/** The retrieval with either fill: the kit's, as `bm25` runs it with 'skip'. */
const bm25Select = (input: Parameters<typeof bm25.assemble>[0], fill: Fill) =>
  bm25Selector({ name: 'bm25', fill })(input);

import topk from '../../strategies/topk.js';
import { asBundle, asRefusal, measured } from '../helpers/compiled.js';
import { admittedOf, cand, rendered, strategyInputAt } from '../helpers/pool.js';

/** The task: the MANDATORY candidate in the role `task`, whose text is the query. */
const task = (content: string, over: Partial<ContextCandidate> = {}) =>
  cand('task', { content, requirement: 'MANDATORY', order_role: 'task', token_count: 10, ...over });
const doc = (id: string, content: string, over: Partial<ContextCandidate> = {}) =>
  cand(id, { content, token_count: 20, ...over });

/**
 * Five files against the query "token lexer". A document is its path and its text, so each
 * holds one more term, its id (d1 ... b7: no stop word, too short to stem):
 *   d1 "token token lexer"  4 terms     d2 "token"   2 terms     d3 "lexer" x4   5 terms
 *   d4 "nothing here"       3 terms     b7 "token" and 45 x "filler": 47 terms, which Lucene
 *   stores in one byte as 46 (SmallFloat: 24 + ((0b1011) << 1)).
 * N = 5, avgdl = 61 / 5 = 12.2 (the true lengths); idf(token), in 3 documents,
 * = ln(1 + 2.5 / 3.5) = 0.538997; idf(lexer), in 2, = ln(1 + 3.5 / 2.5) = 0.875469.
 * score = sum of idf x tf / (tf + 0.9 x (0.6 + 0.4 x dl / 12.2)):
 *   d1 = 0.538997 x 2 / (2 + 0.9 x 0.731148) + 0.875469 x 1 / (1 + 0.657967) = 0.933577
 *   d3 = 0.875469 x 4 / (4 + 0.9 x 0.763934)                                 = 0.747060
 *   d2 = 0.538997 x 1 / (1 + 0.9 x 0.665574)                                 = 0.337080
 *   b7 = 0.538997 x 1 / (1 + 0.9 x 2.108197)                                 = 0.186029
 * and d4 holds no query term: not a hit. A classic idf, ln((N - n + 0.5) / (n + 0.5)), is
 * negative for "token" (in 3 of 5) and would drop d2 and b7; raw tf (no saturation) would put d3
 * (4 x lexer) above d1; no length normalisation would tie d2 with b7 and put b7 first by path;
 * b7's true length (47) would score it 0.184154.
 */
const POOL = [
  task('token lexer'),
  doc('d1', 'token token lexer'),
  doc('d2', 'token'),
  doc('d3', 'lexer lexer lexer lexer'),
  doc('d4', 'nothing here'),
  doc('b7', `token${' filler'.repeat(45)}`),
];

describe('bm25 ranks whole files by Lucene BM25 (k1 0.9, b 0.4)', () => {
  it('in the order and with the scores worked out by hand', () => {
    const { documents, query } = splitPool(POOL);
    const ranked = ranking(documents, query);
    expect(ranked.map((r) => r.form.candidate_id)).toEqual(['d1', 'd3', 'd2', 'b7']);
    const expected = [0.933577, 0.74706, 0.33708, 0.186029];
    ranked.forEach((r, i) => {
      expect(r.score).toBeCloseTo(expected[i] as number, 5);
    });
  });

  it('breaks a tie by path, and reads the text, never the relevance', () => {
    // Same text, same length: the same score; the path decides. Relevance says the opposite.
    const pool = [
      task('token'),
      doc('q2', 'token', { relevance: 0.1 }),
      doc('q1', 'token', { relevance: 0.9 }),
      doc('q3', 'token', { relevance: 1 }),
    ];
    const budget = rendered(10, 20, 20);
    expect(admittedOf(bm25.assemble(strategyInputAt(budget, pool)))).toEqual(['task', 'q1', 'q2']);
    const reversed = pool.map((c) => ({ ...c, relevance: 1 - c.relevance }));
    expect(admittedOf(bm25.assemble(strategyInputAt(budget, reversed)))).toEqual(['task', 'q1', 'q2']);
    // topk, which reads relevance, takes q3 first: the two rules really differ on this pool.
    expect(asBundle(measured(topk, strategyInputAt(budget, pool))).admitted).toContain('q3');
  });
});

describe('bm25 fills as SWE-bench does: whole files in rank order, the prompt first', () => {
  // Ranks: d1, d3, d2, b7 (above). d3 is dear: 100 tokens.
  const pool = POOL.map((c) => (c.candidate_id === 'd3' ? { ...c, token_count: 100 } : c));
  const budget = rendered(10, 20, 20, 20);

  it('skips a file that does not fit and tries the next (the default)', () => {
    const out = asBundle(measured(bm25, strategyInputAt(budget, pool)));
    expect(out.admitted).toEqual(['task', 'd1', 'd2', 'b7']);
    expect(out.renderedTokens).toBe(budget);
    expect(out.extras).toEqual({ ranked: ['d1', 'd3', 'd2', 'b7'], skipped: 1 });
  });

  it('stops at the first file that does not fit when asked to', () => {
    expect(admittedOf(bm25Select(strategyInputAt(budget, pool), 'stop'))).toEqual(['task', 'd1']);
  });

  it('admits the task and the instructions first, and refuses when they alone overrun the budget', () => {
    const rules = cand('rules', { content: 'token', requirement: 'MANDATORY', order_role: 'instruction' });
    const withRules = [rules, ...pool];
    const fits = admittedOf(bm25.assemble(strategyInputAt(rendered(10, 10, 20), withRules)));
    expect(fits).toEqual(['rules', 'task', 'd1']);
    // "token" in the instruction is no query term: d2 ("token") is not lifted above d3.
    expect(splitPool(withRules).query).toBe('token lexer');
    const refusal = asRefusal(measured(bm25, strategyInputAt(rendered(10, 10) - 1, withRules)));
    expect(refusal.reason).toBe('INSUFFICIENT_BUDGET');
  });

  it('adds at most the 20 best hits, however much room is left', () => {
    const many = [task('token'), ...Array.from({ length: 25 }, (_, i) => doc(`f${100 + i}`, 'token'))];
    const admitted = admittedOf(bm25.assemble(strategyInputAt(100_000, many)));
    expect(HITS).toBe(20);
    expect(admitted).toEqual(['task', ...Array.from({ length: 20 }, (_, i) => `f${100 + i}`)]);
  });
});

describe('bm25 retrieves files, not forms or other texts', () => {
  it("indexes a file's path and text, without the pool's File: label", () => {
    const full = cand('full:src/a.py', {
      content_identity: 'src/a.py',
      content: 'File: src/a.py\nimport os',
    });
    expect(documentText(full)).toBe('src/a.py\nimport os');
    expect(documentText(cand('note', { content: 'plain text' }))).toBe('note\nplain text');
  });

  it('admits only full forms, and never a content that has none', () => {
    const id = (x: string, form: string) => ({
      content_identity: x,
      representation_id: form,
      is_default_form: form !== 'full',
    });
    const pool = [
      task('parser'),
      cand('p-full', { ...id('parser.ts', 'full'), content: 'parser parser', form_rank: 3 }),
      cand('p-outline', { ...id('parser.ts', 'outline'), content: 'parser', form_rank: 2, token_count: 2 }),
      cand('only-ref', { ...id('lexer.ts', 'reference'), content: 'parser', form_rank: 0, token_count: 2 }),
    ];
    expect(admittedOf(bm25.assemble(strategyInputAt(10_000, pool)))).toEqual(['task', 'p-full']);
  });
});

const SEED = 3535;
describe(`bm25 never overruns the budget (fast-check, seed ${SEED})`, () => {
  const word = fc.constantFrom('token', 'lexer', 'parse', 'the', 'cache', 'Quoted', "John's", 'x.y');
  const text = fc.array(word, { maxLength: 12 }).map((ws) => ws.join(' '));
  const pool = fc
    .record({
      query: text,
      files: fc.array(fc.record({ text, tokens: fc.nat(400) }), { maxLength: 30 }),
      taskTokens: fc.nat(200),
    })
    .map(({ query, files, taskTokens }) => [
      task(query, { token_count: taskTokens }),
      ...files.map((f, i) => doc(`f${i}`, f.text, { token_count: f.tokens })),
    ]);

  it('every bundle renders within the budget; a refusal only when the task alone does not fit', () => {
    fc.assert(
      fc.property(
        pool,
        fc.nat(3000),
        fc.constantFrom('skip' as const, 'stop' as const),
        (p, budget, fill) => {
          const out = measured({ ...bm25, assemble: (i) => bm25Select(i, fill) }, strategyInputAt(budget, p));
          if (out.outcome === 'refusal') expect(rendered(p[0]?.token_count ?? 0)).toBeGreaterThan(budget);
          else expect(asBundle(out).renderedTokens).toBeLessThanOrEqual(budget);
        },
      ),
      { seed: SEED, numRuns: 300 },
    );
  });
});
