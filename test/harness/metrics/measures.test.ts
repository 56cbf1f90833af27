/**
 * Each measure on a hand-built bundle, its value worked out in the comments from the definitions
 * in docs/formats.md ("Measures"), on the ruler the test pool's helper states: the header costs 4,
 * a separator 1, and each item its declared count plus a decoration of 3.
 */
import { describe, expect, it } from 'vitest';
import type { ContextCandidate } from '../../../src/compiler/index.js';
import { measureBundle } from '../../../src/harness/metrics/index.js';
import type { CaseLedger } from '../../../src/harness/types.js';
import { cand, EVERY_CLASS, everyClassPool, ledger, policy, rendered, req } from '../../helpers/pool.js';

const LEDGER = EVERY_CLASS;
// x1 is in no ledger entry: unlabelled, as o1.
const POOL = everyClassPool();

const measured = (
  live: ContextCandidate[],
  budget = 100,
  truth: CaseLedger = LEDGER,
  pool = POOL,
  extras: Readonly<Record<string, unknown>> = {},
) =>
  measureBundle(
    {
      live,
      request: req(budget),
      policy: policy(),
      renderedTokens: rendered(...live.map((c) => c.token_count)),
      budget,
      extras,
    },
    pool,
    truth,
  );

// Laid out d1 (10 declared), m1 (20), s1 (10), m2 (30): item costs 13, 23, 13, 33.
// Starts: d1 at 4 (the header); m1 at 4 + 13 + 1 = 18; s1 at 18 + 23 + 1 = 42; m2 at 42 + 13 + 1 = 56.
// Rendered tokens: 56 + 33 = 89 (the helper: 82 + 3 separators + 4 = 89).
const LIVE = [
  cand('d1', { order_role: 'evidence' }),
  cand('m1', { token_count: 20, order_role: 'instructions', requirement: 'MANDATORY' }),
  cand('s1', { order_role: 'evidence' }),
  cand('m2', { token_count: 30, order_role: 'state', requirement: 'REQUIRED' }),
];

describe('measures of a hand-built bundle', () => {
  const m = measured(LIVE);

  it('places each must and should item by its start on the rendered ruler', () => {
    expect(rendered(10, 20, 10, 30)).toBe(89);
    expect(m.positions).toEqual([
      { id: 'm1', class: 'must', start: 18, tokens: 23 },
      { id: 's1', class: 'should', start: 42, tokens: 13 },
      { id: 'm2', class: 'must', start: 56, tokens: 33 },
    ]);
    // (18 + 42 + 56) / 3 / 89 = 116 / 267
    expect(m.mean_position).toBeCloseTo(116 / 267, 12);
  });

  it('measures the share of must tokens in the middle third', () => {
    // The middle third is [89/3, 178/3) = [29.67, 59.33). m1 spans [18, 41): 41 - 89/3 = 34/3 inside.
    // m2 spans [56, 89): 178/3 - 56 = 10/3 inside. (34/3 + 10/3) / (23 + 33) = (44/3) / 56 = 11/42.
    expect(m.must_middle_share).toBeCloseTo(11 / 42, 12);
  });

  it('ranks the rendered order by ledger gain against the best the pool offers', () => {
    // Gains in order: d1 1, m1 4, s1 3, m2 4. DCG = 1/log2(2) + 4/log2(3) + 3/log2(4) + 4/log2(5).
    // The pool's best four contents: m1 4, m2 4, s1 3, then an unlabelled 2 (o1 or x1).
    // IDCG = 4/log2(2) + 4/log2(3) + 3/log2(4) + 2/log2(5).
    const dcg = 1 + 4 / Math.log2(3) + 3 / 2 + 4 / Math.log2(5);
    const ideal = 4 + 4 / Math.log2(3) + 3 / 2 + 2 / Math.log2(5);
    expect(m.ndcg).toBeCloseTo(dcg / ideal, 12);
    // m1, the first must item, is second: 1/2.
    expect(m.first_must_rr).toBe(0.5);
  });

  it('counts the useful share, budget use and overshoot', () => {
    // Must and should tokens 23 + 13 + 33 = 69 of 89.
    expect(m.useful_share).toBeCloseTo(69 / 89, 12);
    expect(m.budget_use).toBeCloseTo(89 / 100, 12);
    expect(m.overshoot_tokens).toBe(0);
    // At a budget of 80 the same bundle is 9 tokens over.
    const over = measured(LIVE, 80);
    expect(over.budget_use).toBeCloseTo(89 / 80, 12);
    expect(over.overshoot_tokens).toBe(9);
  });

  it('splits the rendered tokens into the frame, the order roles and the requirement classes', () => {
    // Frame: the header 4 and 3 separators = 7. Roles: evidence d1 13 + s1 13 = 26, instructions 23,
    // state 33, in the order they first appear. Classes: MANDATORY m1 23, REQUIRED m2 33,
    // DISCRETIONARY d1 + s1 = 26. 7 + 23 + 33 + 26 = 89.
    expect(m.composition).toEqual({
      frame: 7,
      roles: { evidence: 26, instructions: 23, state: 33 },
      classes: { MANDATORY: 23, REQUIRED: 33, PREFERRED: 0, DISCRETIONARY: 26 },
    });
    expect(Object.keys(m.composition.roles)).toEqual(['evidence', 'instructions', 'state']);
  });
});

describe('measures where there is nothing to measure', () => {
  it('an empty bundle has no rank, no placement and nothing useful, yet uses its header', () => {
    const m = measured([], 40);
    expect(m.ndcg).toBeNull();
    expect(m.mean_position).toBeNull();
    expect(m.must_middle_share).toBeNull();
    // The case has must content and none was admitted: the reciprocal rank is 0, not undefined.
    expect(m.first_must_rr).toBe(0);
    expect(m.useful_share).toBe(0);
    // The header alone: 4 of 40.
    expect(m.budget_use).toBeCloseTo(4 / 40, 12);
    expect(m.composition.frame).toBe(4);
  });

  it('a case without must content has no first-must rank; a budget of 0 has no budget use', () => {
    const noMust = ledger({ s1: 'should' });
    const m = measured([cand('s1')], 0, noMust);
    expect(m.first_must_rr).toBeNull();
    expect(m.must_middle_share).toBeNull();
    expect(m.budget_use).toBeNull();
    // 4 + 13 = 17 rendered, all over a budget of 0.
    expect(m.overshoot_tokens).toBe(17);
  });

  it('nDCG is 1 for the pool best contents in gain order, and below 1 out of order', () => {
    // The best two: m1 and m2 (gain 4 each), in either order of the two.
    expect(measured([cand('m1'), cand('m2')]).ndcg).toBeCloseTo(1, 12);
    // s1 (3) before m1 (4): (3 + 4/log2(3)) / (4 + 4/log2(3)).
    expect(measured([cand('s1'), cand('m1')]).ndcg).toBeCloseTo(
      (3 + 4 / Math.log2(3)) / (4 + 4 / Math.log2(3)),
      12,
    );
  });

  it('nDCG credits a content once however many of its forms the bundle holds', () => {
    // The pool: two forms of the must content m1, and the should content s1.
    const full = cand('m1-full', { content_identity: 'm1' });
    const summary = cand('m1-summary', { content_identity: 'm1', representation_id: 'summary' });
    const pool = [full, summary, cand('s1')];
    // The ideal of two places takes each content once: m1 (4), then s1 (3): 4 + 3/log2(3).
    const ideal = 4 + 3 / Math.log2(3);
    // Both forms of m1: the second earns nothing, 4 / ideal. Crediting each form would give
    // (4 + 4/log2(3)) / ideal = 1.107, above the ideal.
    const twice = measured([full, summary], 100, LEDGER, pool).ndcg as number;
    expect(twice).toBeCloseTo(4 / ideal, 12);
    expect(twice).toBeLessThan(1);
    // One form and s1 is the ideal, whichever form it is.
    expect(measured([summary, cand('s1')], 100, LEDGER, pool).ndcg).toBeCloseTo(1, 12);
    // The content is credited at its first place: s1, then m1 twice, is 3 + 4/log2(3) + 0.
    const later = measured([cand('s1'), summary, full], 100, LEDGER, pool).ndcg as number;
    // The ideal of three places: m1 4, s1 3, and nothing more in the pool.
    expect(later).toBeCloseTo((3 + 4 / Math.log2(3)) / (4 + 3 / Math.log2(3)), 12);
  });

  it('nDCG counts a content the bundle holds but the pool lacks in its ideal too', () => {
    // m2 is in no pool given: its gain joins the ideal, so the bundle cannot beat it.
    const pool = [cand('s1')];
    expect(measured([cand('m2'), cand('s1')], 100, LEDGER, pool).ndcg).toBeCloseTo(1, 12);
    expect(measured([cand('s1'), cand('m2')], 100, LEDGER, pool).ndcg as number).toBeLessThan(1);
  });

  it('nDCG is undefined where the pool offers no gain', () => {
    // A pool of harmful content only offers no gain: nDCG is undefined.
    const harmful = ledger({ h1: 'harmful' });
    expect(measured([cand('h1')], 100, harmful, [cand('h1')]).ndcg).toBeNull();
  });
});

describe('redundancy by shingling', () => {
  const said = (id: string, content: string) => cand(id, { content });
  it('counts an item whose 4-word shingles were four fifths or more laid out before it', () => {
    const live = [
      // 9 words: 6 shingles, all new.
      said('a', 'the quick brown fox jumps over the lazy dog'),
      // 8 words: 5 shingles, each inside a's text: a near-duplicate (5/5).
      said('b', 'quick brown fox jumps over the lazy dog'),
      // 8 words: 5 shingles, only "the quick brown fox" seen: 1/5, not a repeat.
      said('c', 'the quick brown fox runs far away now'),
      // a again in other case and punctuation: the same 6 shingles, all seen.
      said('e', 'THE QUICK brown fox; jumps over the lazy dog.'),
      // 3 words are one shingle, "one two three", never seen.
      said('f', 'one two three'),
    ];
    // b and e are the repeats: 10 + 3 each.
    expect(measured(live).redundant_tokens).toBe(26);
  });

  it('a one-word change in a short sentence is not a repeat', () => {
    // 5 words each, 2 shingles each; "mandatory constraint block synthetic" is shared: 1/2 < 4/5.
    const live = [
      said('a', 'First mandatory constraint block (synthetic).'),
      said('b', 'Second mandatory constraint block (synthetic).'),
    ];
    expect(measured(live).redundant_tokens).toBe(0);
  });
});

describe('the localization measures of a bundle', () => {
  // Two must files, each in three forms (full 3, outline 2, reference 0), and one should file; the
  // ledger names the full text sufficient for a and an outline for b.
  const forms = (id: string) => [
    cand(`${id}#full`, { content_identity: id, token_count: 40 }),
    cand(`${id}#outline`, {
      content_identity: id,
      representation_id: 'outline',
      form_rank: 2,
      token_count: 10,
    }),
    cand(`${id}#ref`, { content_identity: id, representation_id: 'reference', form_rank: 0, token_count: 2 }),
  ];
  const [aFull, aOutline, aRef] = forms('a') as [ContextCandidate, ContextCandidate, ContextCandidate];
  const [bFull, bOutline, bRef] = forms('b') as [ContextCandidate, ContextCandidate, ContextCandidate];
  const pool = [aFull, aOutline, aRef, bFull, bOutline, bRef, cand('s')];
  const truth = ledger({ a: 'must', b: ['must', 'outline'], s: 'should' });
  const m = (live: ContextCandidate[], t = truth, extras = {}) => measured(live, 1000, t, pool, extras);

  it('counts a must file only in the sufficient form or a fuller one', () => {
    expect(m([aFull, bOutline]).must_sufficient_recall).toBe(1);
    // b's full text is fuller than the outline it needs; a's outline is short of its full text.
    expect(m([aOutline, bFull]).must_sufficient_recall).toBe(0.5);
    // A path list holds every file by name and none sufficiently.
    expect(m([aRef, bRef]).must_sufficient_recall).toBe(0);
    expect(m([cand('s')]).must_sufficient_recall).toBe(0);
  });

  it('counts a file the pool cannot hold as missed, and is null with no must content', () => {
    const created = { ...truth, must_not_in_pool: { 'new.py': 'created by the patch' } };
    expect(m([aFull, bFull], created).must_sufficient_recall).toBeCloseTo(2 / 3, 12);
    expect(m([aFull], ledger({ a: 'should' })).must_sufficient_recall).toBeNull();
  });

  it("gives the must items' share of the rendered tokens, any form", () => {
    // a full (40 + 3) and s (10 + 3) after a header of 4 and a separator: 4 + 43 + 1 + 13 = 61.
    expect(m([aFull, cand('s')]).must_token_share).toBeCloseTo(43 / 61, 12);
    expect(m([cand('s')]).must_token_share).toBe(0);
  });

  it("ranks the first must file in the strategy's own ranking, not in the bundle", () => {
    expect(m([aFull], truth, { ranked: ['s', 'x', 'b', 'a'] }).ranked_must_rr).toBeCloseTo(1 / 3, 12);
    expect(m([], truth, { ranked: ['s', 'x'] }).ranked_must_rr).toBe(0);
    // No ranking published, or not a list of contents: nothing to rank.
    expect(m([aFull]).ranked_must_rr).toBeNull();
    expect(m([aFull], truth, { ranked: 'a' }).ranked_must_rr).toBeNull();
    expect(m([aFull], truth, { ranked: ['a', 3] }).ranked_must_rr).toBeNull();
  });

  it('ranks where every must file has appeared, and misses a file outside the ranking or the pool', () => {
    // truth's must files are a and b: the first at 1, the last at 4.
    expect(m([], truth, { ranked: ['a', 's', 'x', 'b'] }).ranked_all_must_rank).toBe(4);
    expect(m([], truth, { ranked: ['b', 'a'] }).ranked_all_must_rank).toBe(2);
    expect(m([], truth, { ranked: ['a', 's'] }).ranked_all_must_rank).toBe(0);
    const created = { ...truth, must_not_in_pool: { 'new.py': 'created by the patch' } };
    expect(m([], created, { ranked: ['a', 'b'] }).ranked_all_must_rank).toBe(0);
    expect(m([aFull]).ranked_all_must_rank).toBeNull();
    expect(m([aFull], ledger({ a: 'should' }), { ranked: ['a'] }).ranked_all_must_rank).toBeNull();
  });
});
