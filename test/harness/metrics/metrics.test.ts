import { describe, expect, it } from 'vitest';
import type { ContextCandidate } from '../../../src/compiler/index.js';
import { score } from '../../../src/harness/metrics/index.js';
import type { Expectation, Strategy } from '../../../src/harness/types.js';
import { asRefusal, measured } from '../../helpers/compiled.js';
import { cand, EVERY_CLASS, everyClassPool, ledger, policy, rendered, req } from '../../helpers/pool.js';

/** A compilation as the scorer reads it. */
type Scored = Parameters<typeof score>[0];

/** M = {m1, m2}, S = {s1}; o1 optional, d1 distractor, h1 harmful; anything else is unlisted. */
const LEDGER = EVERY_CLASS;
const POOL = everyClassPool();
const OK: Expectation = { success: true, reason: null };

/** A returned bundle of 10-token test candidates, priced with the spec's formula. */
const bundle = (admitted: string[], budget = 1000): Scored => ({
  admitted,
  reason: null,
  renderedTokens: rendered(...admitted.map(() => 10)),
  budget,
});
const refused = (reason: string, budget = 1000): Scored => ({
  admitted: null,
  reason,
  renderedTokens: 0,
  budget,
});
const forms = (identity: string, ...ids: string[]) =>
  ids.map((id) => cand(id, { content_identity: identity }));

describe('score: a refusal', () => {
  it('scores zero recall, precision 1, no slack, and is within budget', () => {
    expect(score(refused('INSUFFICIENT_BUDGET'), OK, POOL, LEDGER)).toMatchObject({
      must_recall: 0, // refusals score 0.0
      should_recall: 0, // S = {s1} is not empty
      must_total: 2,
      should_total: 1,
      precision: 1, // U is empty
      budget_slack: null,
      budget_compliant: true, // 0 <= budget
      under_admission: 3, // (2 - 0) + (1 - 0)
      over_admission: 0,
      illegal_admission: 0,
      distractor_admission: 0,
    });
  });

  it('renders 0 tokens through the harness', () => {
    const refuser: Strategy = {
      name: 'refuser',
      description: 'always refuses',
      assemble: () => ({ refusal: { reason: 'INSUFFICIENT_BUDGET' } }),
    };
    const out = measured(refuser, { request: req(50), candidates: POOL, policy: policy(), budget: 50 });
    expect(asRefusal(out).reason).toBe('INSUFFICIENT_BUDGET');
  });

  it('is status-correct only when a failure is expected with its reason or with no reason', () => {
    const s = (e: Expectation) => score(refused('INSUFFICIENT_BUDGET'), e, POOL, LEDGER).status_correct;
    expect(s({ success: false, reason: 'INSUFFICIENT_BUDGET' })).toBe(true);
    expect(s({ success: false, reason: null })).toBe(true);
    expect(s({ success: false, reason: 'NO_LEGAL_REPRESENTATION' })).toBe(false);
    expect(s(OK)).toBe(false);
  });
});

describe('score: status and budget of a returned bundle', () => {
  it('is status-correct when success is expected, whatever a failure expectation names', () => {
    const out = bundle(['m1']);
    expect(score(out, OK, POOL, LEDGER).status_correct).toBe(true);
    expect(score(out, { success: false, reason: null }, POOL, LEDGER).status_correct).toBe(false);
    expect(score(out, { success: false, reason: 'INSUFFICIENT_BUDGET' }, POOL, LEDGER).status_correct).toBe(
      false,
    );
  });

  it('reports the slack, zero when exactly at budget and negative (non-compliant) beyond', () => {
    // m1 + m2 render 13 + 13 + 1 + 4 = 31
    expect(score(bundle(['m1', 'm2'], 31), OK, POOL, LEDGER)).toMatchObject({
      budget_slack: 0,
      budget_compliant: true,
    });
    expect(score(bundle(['m1', 'm2'], 20), OK, POOL, LEDGER)).toMatchObject({
      budget_slack: -11,
      budget_compliant: false,
    });
  });
});

describe('score: an empty bundle', () => {
  it('has precision 1.0, recall 0 and the header as its only cost', () => {
    expect(score(bundle([], 100), OK, POOL, LEDGER)).toMatchObject({
      precision: 1,
      must_recall: 0,
      should_recall: 0,
      budget_slack: 96, // 100 - 4
      under_admission: 3,
      over_admission: 0,
      status_correct: true,
    });
  });
});

describe('score: ledger classes', () => {
  it('counts an identity absent from the ledger as optional: over-admission, not distractor', () => {
    expect(score(bundle(['m1', 'x1']), OK, POOL, LEDGER)).toMatchObject({
      over_admission: 1, // U = {m1, x1}; 2 - 1 hit
      distractor_admission: 0,
      harmful_admission: 0,
      precision: 0.5, // 1 / 2
      must_recall: 0.5,
    });
  });

  it('gives null recall when M or S is empty', () => {
    const onlyShould = ledger({ s1: 'should' });
    const onlyMust = ledger({ m1: 'must' });
    expect(score(bundle(['s1']), OK, POOL, onlyShould)).toMatchObject({
      must_recall: null,
      must_total: 0,
      should_recall: 1,
      under_admission: 0,
    });
    expect(score(bundle(['m1']), OK, POOL, onlyMust)).toMatchObject({
      should_recall: null,
      should_total: 0,
      must_recall: 1,
    });
    // a refusal with M empty still has no must recall to score
    expect(score(refused('INSUFFICIENT_BUDGET'), OK, POOL, onlyShould).must_recall).toBeNull();
  });
});

describe('score: must content the pool cannot hold', () => {
  it('counts each file of must_not_in_pool as a must item no bundle holds', () => {
    const created = { ...LEDGER, must_not_in_pool: { 'new.py': 'created by the patch' } };
    expect(score(bundle(['m1', 'm2']), OK, POOL, created)).toMatchObject({
      must_total: 3,
      must_recall: 2 / 3,
      under_admission: 2, // new.py and s1
    });
    expect(score(bundle(['m1', 'm2']), OK, POOL, LEDGER)).toMatchObject({ must_total: 2, must_recall: 1 });
  });
});

describe('score: items versus identities', () => {
  const pool = [
    ...forms('m1', 'm1-full', 'm1-ref'),
    ...forms('d1', 'd1-a', 'd1-b'),
    ...forms('h1', 'h1-a', 'h1-b'),
  ];

  it('counts distractor and harmful admissions per item, precision per distinct identity', () => {
    const all = pool.map((c) => c.candidate_id);
    expect(score(bundle(all), OK, pool, LEDGER)).toMatchObject({
      distractor_admission: 2, // d1-a, d1-b
      harmful_admission: 2, // h1-a, h1-b
      precision: 1 / 3, // U = {m1, d1, h1}, one hit
      must_recall: 0.5, // m1 counted once, m2 missing
      over_admission: 2, // 3 - 1
    });
  });

  it('does not let two forms of one must identity inflate precision', () => {
    // per item it would be 2/3; per identity U = {m1, d1}: 1/2
    expect(score(bundle(['m1-full', 'm1-ref', 'd1-a']), OK, pool, LEDGER).precision).toBe(0.5);
  });
});

describe('score: illegal admissions split by the first failing gate', () => {
  const off = { form_rank: 0, min_rank: 2 };
  const pool: ContextCandidate[] = [
    cand('s', { scope_eligible: false, freshness_eligible: false, ...off }), // scope first
    cand('f', { freshness_eligible: false, authority_eligible: false, ...off }), // then freshness
    cand('a', { authority_eligible: false, ...off }), // then authority
    cand('l', off), // floor alone
    cand('ok'),
  ];

  it('counts each failing item once, under its first gate code', () => {
    expect(score(bundle(['s', 'f', 'a', 'l', 'ok']), OK, pool, LEDGER)).toMatchObject({
      illegal_admission: 4,
      scope_violations: 1,
      freshness_violations: 1,
      authority_violations: 1,
      floor_violations: 1,
    });
  });

  it('counts an id unknown to the pool as illegal, under no gate', () => {
    expect(score(bundle(['ok', 'ghost']), OK, pool, LEDGER)).toMatchObject({
      illegal_admission: 1,
      scope_violations: 0,
      freshness_violations: 0,
      authority_violations: 0,
      floor_violations: 0,
    });
  });

  it('ignores the gates of candidates left out', () => {
    expect(score(bundle(['ok']), OK, pool, LEDGER).illegal_admission).toBe(0);
  });
});

describe('score: dependency violations', () => {
  it('counts (admitted item, missing dependency) pairs', () => {
    const pool = [
      cand('x', { depends_on: ['d1', 'd2'] }),
      cand('y', { depends_on: ['d2', 'd3'] }),
      cand('z', { depends_on: ['d3'] }), // not admitted: does not count
      ...['d1', 'd2', 'd3'].map((id) => cand(id)),
    ];
    // x misses d2 (1), y misses d2 and d3 (2)
    expect(score(bundle(['x', 'y', 'd1']), OK, pool, LEDGER).dependency_violations).toBe(3);
    expect(score(bundle(['x', 'y', 'd1', 'd2', 'd3']), OK, pool, LEDGER).dependency_violations).toBe(0);
  });
});

describe('score: group violations', () => {
  const member = (id: string, group: string, required = true) =>
    cand(id, { group_id: group, group_required: required });
  const pool = [
    ...['p1', 'p2', 'p3'].map((id) => member(id, 'partial')),
    ...['w1', 'w2'].map((id) => member(id, 'whole')),
    ...['n1', 'n2'].map((id) => member(id, 'none')),
    ...['q1', 'q2'].map((id) => member(id, 'partial-2')),
    ...['l1', 'l2'].map((id) => member(id, 'loose', false)),
  ];

  it('counts required groups admitted in part, not whole, empty or optional groups', () => {
    // partial: 2 of 3; whole: 2 of 2; none: 0 of 2; loose is not required
    expect(score(bundle(['p1', 'p2', 'w1', 'w2', 'l1']), OK, pool, LEDGER).group_violations).toBe(1);
    // plus partial-2: 1 of 2
    expect(score(bundle(['p1', 'q2', 'w1', 'w2', 'l1']), OK, pool, LEDGER).group_violations).toBe(2);
  });
});

describe('score: under and over admission', () => {
  it('counts missed must/should identities and admitted identities of any other class', () => {
    const truth = ledger({
      m1: 'must',
      m2: 'must',
      s1: 'should',
      s2: 'should',
      o1: 'optional',
      d1: 'distractor',
      h1: 'harmful',
    });
    const pool = [...POOL, cand('m1-ref', { content_identity: 'm1' })];
    expect(score(bundle(['m1', 'm1-ref', 's1', 'o1', 'd1', 'h1', 'x1']), OK, pool, truth)).toMatchObject({
      under_admission: 2, // (2 - 1) + (2 - 1)
      over_admission: 4, // U = {m1, s1, o1, d1, h1, x1}: 6 - 2
      must_recall: 0.5,
      should_recall: 0.5,
      precision: 2 / 6,
    });
  });
});
