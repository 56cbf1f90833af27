import { describe, expect, it } from 'vitest';
import type { CompilerPolicy } from '../../src/compiler/index.js';
import { type ContextCandidate, compileContext } from '../../src/compiler/index.js';
import { cand, policy, req } from '../helpers/pool.js';

// Expected texts are docs/compiler.md §4, typed out here.

const thrownBy = (candidates: ContextCandidate[], request = req(1000), p = policy()): string => {
  try {
    compileContext(request, candidates, p);
  } catch (e) {
    return e instanceof Error ? e.message : String(e);
  }
  return '(nothing thrown)';
};
const inputs = (...problems: string[]) => `invalid compiler inputs: ${problems.join('; ')}`;
const grouped = (id: string, g: string, requirement: ContextCandidate['requirement']) =>
  cand(id, { group_id: g, group_required: true, requirement });

describe('per-candidate problems: duplicate id and negative token count, in input order', () => {
  it('reports each candidate before the next, not all duplicates first', () => {
    const pool = [cand('x', { token_count: -1 }), cand('y'), cand('y'), cand('z', { token_count: -2 })];
    expect(thrownBy(pool)).toBe(
      inputs('negative token_count: x', 'duplicate candidate_id: y', 'negative token_count: z'),
    );
  });
  it('names the duplicate before its own negative count', () => {
    expect(thrownBy([cand('a'), cand('a', { token_count: -5 })])).toBe(
      inputs('duplicate candidate_id: a', 'negative token_count: a'),
    );
  });
  it('reports every repetition, and accepts a zero count', () => {
    expect(thrownBy([cand('a'), cand('a'), cand('a'), cand('b', { token_count: 0 })])).toBe(
      inputs('duplicate candidate_id: a', 'duplicate candidate_id: a'),
    );
  });
});

describe('unknown dependencies', () => {
  it('quotes the dependency as JSON, per candidate in input order then per listed dependency', () => {
    const pool = [cand('b', { depends_on: ['g1', 'a', 'g2'] }), cand('a', { depends_on: ['g0'] })];
    expect(thrownBy(pool)).toBe(
      inputs(
        'unknown dependency "g1" from b',
        'unknown dependency "g2" from b',
        'unknown dependency "g0" from a',
      ),
    );
  });
  it('knows every id of the pool, including ones that come later in input order', () => {
    const pool = [cand('first', { depends_on: ['last'] }), cand('mid'), cand('last')];
    expect(compileContext(req(1000), pool, policy()).result.success).toBe(true);
  });
  it('come after every duplicate and negative count, whatever the input order', () => {
    const pool = [cand('a', { depends_on: ['ghost'] }), cand('b'), cand('b', { token_count: -3 })];
    expect(thrownBy(pool)).toBe(
      inputs('duplicate candidate_id: b', 'negative token_count: b', 'unknown dependency "ghost" from a'),
    );
  });
});

describe('required groups spanning bands', () => {
  it('lists the sorted distinct declared bands, joined by a comma', () => {
    const pool = [
      grouped('g1', 'g', 'REQUIRED'),
      grouped('g2', 'g', 'PREFERRED'),
      grouped('g3', 'g', 'REQUIRED'),
    ];
    expect(thrownBy(pool)).toBe(inputs('required group g spans bands: PREFERRED,REQUIRED'));
  });
  it('reports groups in order of first appearance, not by name', () => {
    const pool = [
      grouped('m1', 'zz', 'MANDATORY'),
      grouped('a1', 'aa', 'DISCRETIONARY'),
      grouped('a2', 'aa', 'REQUIRED'),
      grouped('m2', 'zz', 'DISCRETIONARY'),
    ];
    expect(thrownBy(pool)).toBe(
      inputs(
        'required group zz spans bands: DISCRETIONARY,MANDATORY',
        'required group aa spans bands: DISCRETIONARY,REQUIRED',
      ),
    );
  });
  it('ignores groups that are not all-or-none', () => {
    const loose = [cand('p', { group_id: 'g', requirement: 'REQUIRED' }), cand('q', { group_id: 'g' })];
    const unnamed = [grouped('r', '', 'REQUIRED'), grouped('s', '', 'PREFERRED')];
    expect(compileContext(req(1000), [...loose, ...unnamed], policy()).result.success).toBe(true);
  });
  it('judges the declared band, not the one promoted by required_ids', () => {
    const pool = [grouped('g1', 'g', 'PREFERRED'), grouped('g2', 'g', 'PREFERRED')];
    expect(compileContext(req(1000, { required_ids: ['g1'] }), pool, policy()).result.success).toBe(true);
    const declared = [grouped('g1', 'g', 'REQUIRED'), grouped('g2', 'g', 'PREFERRED')];
    expect(thrownBy(declared, req(1000, { required_ids: ['g2'] }))).toBe(
      inputs('required group g spans bands: PREFERRED,REQUIRED'),
    );
  });
  it('come last among the input problems', () => {
    const pool = [
      grouped('g1', 'g', 'REQUIRED'),
      grouped('g2', 'g', 'PREFERRED'),
      cand('d', { depends_on: ['x'] }),
    ];
    expect(thrownBy([...pool, cand('d')])).toBe(
      inputs(
        'duplicate candidate_id: d',
        'unknown dependency "x" from d',
        'required group g spans bands: PREFERRED,REQUIRED',
      ),
    );
  });
});

describe('ineligible candidates still count', () => {
  const hard = { scope_eligible: false, freshness_eligible: false, authority_eligible: false, min_rank: 9 };
  it('for id uniqueness', () => {
    expect(thrownBy([cand('a', hard), cand('a')])).toBe(inputs('duplicate candidate_id: a'));
  });
  it('for dependency existence: a dependency on an ineligible candidate is known', () => {
    const out = compileContext(req(1000), [cand('a', { depends_on: ['h'] }), cand('h', hard)], policy());
    expect(out.result.trace.entries.map((e) => e.decision)).toEqual(['REJECTED_DEPENDENCY', 'REJECTED_HARD']);
  });
  it('for negative counts', () => {
    expect(thrownBy([cand('h', { ...hard, token_count: -1 })])).toBe(inputs('negative token_count: h'));
  });
});

describe('policy checks after input validation', () => {
  const other = policy({ policy_version: 'b' });
  it('throws on a policy-version mismatch, both versions JSON-quoted', () => {
    expect(thrownBy([cand('a')], req(1000, { policy_version: 'a' }), other)).toBe(
      'request policy "a" != compiler policy "b"',
    );
  });
  it('reports input problems before the policy mismatch', () => {
    expect(thrownBy([cand('a'), cand('a')], req(1000, { policy_version: 'a' }), other)).toBe(
      inputs('duplicate candidate_id: a'),
    );
  });
  it('then refuses a mandatory_form other than cheapest at compile time', () => {
    const x = { ...policy(), mandatory_form: 'x' } as unknown as CompilerPolicy;
    expect(thrownBy([cand('a')], req(1000), x)).toBe('unsupported mandatory_form: "x"');
    expect(thrownBy([cand('a')], req(1000, { policy_version: 'a' }), { ...x, policy_version: 'b' })).toBe(
      'request policy "a" != compiler policy "b"',
    );
  });
});

describe('well-formed but infeasible input refuses instead of throwing', () => {
  it('an empty pool at budget 0 still pays the header (4) and refuses', () => {
    const out = compileContext(req(0), [], policy());
    expect(out.result.failure?.diagnostic).toBe('rendered 4 exceeds budget 0 with no legal repair');
  });
});
