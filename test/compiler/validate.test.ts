import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  type CompilationResult,
  type ContextBundle,
  type ContextItem,
  compileContext,
  readResult,
  type TraceEntry,
  validateBundle,
  validateResult,
} from '../../src/compiler/index.js';
import { at, GOLDEN_DIR } from '../helpers/corpus.js';
import { cand, policy, rendered, req } from '../helpers/pool.js';

// Every expected problem string is docs/compiler.md §16, typed out here.

const grp = { group_id: 'grp', group_required: true, requirement: 'REQUIRED' } as const;
const POOL = [
  cand('a', { requirement: 'MANDATORY', order_role: 'instruction' }),
  cand('b', { depends_on: ['c'] }), // named by the request, so promoted to REQUIRED; pulls in c
  cand('c', { order_role: 'tool' }),
  cand('g1', grp),
  cand('g2', grp),
  cand('x-full', { content_identity: 'x', token_count: 20, requirement: 'PREFERRED' }),
  cand('x-compact', { content_identity: 'x', form_rank: 2, token_count: 5, requirement: 'PREFERRED' }),
  cand('hs', { scope_eligible: false }),
  cand('hf', { freshness_eligible: false }),
  cand('ha', { authority_eligible: false }),
  cand('hsa', { scope_eligible: false, authority_eligible: false }),
  cand('low', { form_rank: 1, min_rank: 2 }),
];
const REQUEST = req(1000, { required_ids: ['b'] });
const good = compileContext(REQUEST, POOL, policy());
const failedRequest = req(5, { required_ids: ['b'] }); // a (10) cannot fit: INSUFFICIENT_BUDGET
const failed = compileContext(failedRequest, POOL, policy());
function lost(what: string): never {
  throw new Error(`fixture lost its ${what}`);
}
const bundle = good.bundle ?? lost('bundle');
// Admitted: a, b+c, g1+g2, the cheaper form of x. Render order by role, then id.
const LAYOUT = ['a', 'b', 'g1', 'g2', 'x-compact', 'c'];
const ITEM_SUM = 5 * (10 + 3) + (5 + 3); // item token_count = declared + decoration 3

/** A bundle with these items: the compiled ones where they exist, else an item costing 13. */
const withItems = (ids: readonly string[]): ContextBundle => {
  const items = ids.map(
    (id, position): ContextItem => ({
      ...(bundle.items.find((i) => i.id === id) ?? { ...(bundle.items[0] ?? lost('item')), token_count: 13 }),
      id,
      position,
    }),
  );
  return { ...bundle, items, layout_trace: items.map((i) => i.id) };
};
const problemsOf = (b: ContextBundle, request = REQUEST) => validateBundle(b, request, POOL, policy());
const editEntry = (r: CompilationResult, id: string, change: Partial<TraceEntry>): CompilationResult => ({
  ...r,
  trace: {
    ...r.trace,
    entries: r.trace.entries.map((e) => (e.candidate_id === id ? { ...e, ...change } : e)),
  },
});
const entryOf = (r: CompilationResult, id: string) =>
  r.trace.entries.find((e) => e.candidate_id === id) ?? lost(id);

describe('the legal baseline', () => {
  it('compiles the pool into the bundle the spec predicts, which both validators accept', () => {
    expect(bundle.layout_trace).toEqual(LAYOUT);
    expect(good.result.bundle_tokens).toBe(rendered(10, 10, 10, 10, 5, 10));
    expect(problemsOf(bundle)).toEqual([]);
    expect(validateResult(good.result, REQUEST, POOL)).toEqual([]);
    expect(failed.result.failure?.reason).toBe('INSUFFICIENT_BUDGET');
    expect(validateResult(failed.result, failedRequest, POOL)).toEqual([]);
  });
});

describe('validateBundle: hard gates and the floor', () => {
  it.each([
    ['hs', 'scope'],
    ['hf', 'freshness'],
    ['ha', 'authority'],
    ['hsa', 'scope'],
  ])('admitting %s breaks %s (the first failed rule only)', (id, rule) => {
    expect(problemsOf(withItems([...LAYOUT, id]))).toEqual([
      `admitted hard-ineligible candidate ${id}: ${rule}`,
    ]);
  });
  it('a floor violation is reported twice', () => {
    expect(problemsOf(withItems([...LAYOUT, 'low']))).toEqual([
      'admitted hard-ineligible candidate low: floor',
      'admitted candidate below floor: low',
    ]);
  });
});

describe('validateBundle: dependencies, groups, one form per content', () => {
  it('flags an item whose dependency is absent', () => {
    expect(problemsOf(withItems(LAYOUT.filter((id) => id !== 'c')))).toEqual([
      'unsatisfied dependency: b needs c',
    ]);
  });
  it('flags a group with some but not all members, and accepts one with none', () => {
    expect(problemsOf(withItems(LAYOUT.filter((id) => id !== 'g2')))).toEqual([
      'required group partially admitted: grp',
    ]);
    expect(problemsOf(withItems(LAYOUT.filter((id) => !id.startsWith('g'))))).toEqual([]);
  });
  it('flags two forms of one content', () => {
    expect(problemsOf(withItems([...LAYOUT, 'x-full']))).toEqual(['duplicate representation admitted: x']);
  });
});

describe('validateBundle: budget counts item token_counts only', () => {
  it('reports the item sum against the budget', () => {
    const tight = req(ITEM_SUM - 1, { required_ids: ['b'] });
    expect(problemsOf(bundle, tight)).toEqual([`rendered cost ${ITEM_SUM} exceeds budget ${ITEM_SUM - 1}`]);
  });
  it('ignores header and separators: the item sum exactly at budget passes', () => {
    expect(rendered(10, 10, 10, 10, 5, 10)).toBeGreaterThan(ITEM_SUM);
    expect(problemsOf(bundle, req(ITEM_SUM, { required_ids: ['b'] }))).toEqual([]);
  });
});

describe('validateBundle: layout, named ids, strangers', () => {
  it('flags a layout trace that is not the item order (built without makeBundle)', () => {
    const reordered: ContextBundle = { ...bundle, layout_trace: [...LAYOUT].reverse() };
    expect(problemsOf(reordered)).toEqual(['layout trace must equal item order exactly']);
    expect(problemsOf({ ...bundle, layout_trace: LAYOUT.slice(1) })).toEqual([
      'layout trace must equal item order exactly',
    ]);
  });
  it('flags a named candidate that is absent, but not a named id that is no candidate', () => {
    expect(problemsOf(withItems(LAYOUT.filter((id) => id !== 'b')))).toEqual([
      'explicitly required candidate absent: b',
    ]);
    expect(problemsOf(bundle, req(1000, { required_ids: ['ghost', 'b'] }))).toEqual([]);
  });
  it('flags an item that is not a candidate, and checks nothing else for it', () => {
    expect(problemsOf(withItems([...LAYOUT, 'zz']))).toEqual(['bundle item not a candidate: zz']);
  });
});

describe('validateBundle: problems come in the spec order', () => {
  it('layout, cost, per item (in item order), named ids, dependencies, groups, duplicates', () => {
    const items = withItems(['a', 'zz', 'b', 'low', 'g1', 'x-compact', 'x-full', 'hs']).items;
    const broken: ContextBundle = { ...bundle, items, layout_trace: items.map((i) => i.id).reverse() };
    expect(problemsOf(broken, req(10, { required_ids: ['b', 'g2'] }))).toEqual([
      'layout trace must equal item order exactly',
      `rendered cost ${7 * 13 + 8} exceeds budget 10`,
      'bundle item not a candidate: zz',
      'admitted hard-ineligible candidate low: floor',
      'admitted candidate below floor: low',
      'admitted hard-ineligible candidate hs: scope',
      'explicitly required candidate absent: g2',
      'unsatisfied dependency: b needs c',
      'required group partially admitted: grp',
      'duplicate representation admitted: x',
    ]);
  });
});

describe('validateResult: trace coverage and result shape', () => {
  const r = good.result;
  it('a success must trace exactly the candidate ids', () => {
    const fewer = {
      ...r,
      trace: { ...r.trace, entries: r.trace.entries.filter((e) => e.candidate_id !== 'hs') },
    };
    expect(validateResult(fewer, REQUEST, POOL)).toEqual(['trace covers 11 of 12 considered candidates']);
    const swapped = editEntry(r, 'hs', { candidate_id: 'zz' });
    expect(validateResult(swapped, REQUEST, POOL)).toEqual(['trace covers 12 of 12 considered candidates']);
  });
  it('a failure may trace part of the pool, but nothing outside it', () => {
    expect(failed.result.trace.entries.length).toBeLessThan(POOL.length);
    const stranger = editEntry(failed.result, 'hs', { candidate_id: 'zz' });
    expect(validateResult(stranger, failedRequest, POOL)).toEqual([
      'trace references unconsidered candidates',
    ]);
  });
  it('checks the request id and the success/failure fields', () => {
    const check = (x: CompilationResult, request = REQUEST) => validateResult(x, request, POOL);
    expect(check({ ...r, trace: { ...r.trace, request_id: 'other' } })).toEqual(['trace request mismatch']);
    expect(check({ ...r, failure: failed.result.failure })).toEqual(['success carries a failure']);
    expect(check({ ...failed.result, failure: null }, failedRequest)).toEqual([
      'failure carries no failure record',
    ]);
    expect(check({ ...failed.result, bundle_id: 'r-bundle' }, failedRequest)).toEqual([
      'failure carries a bundle identity',
    ]);
  });
});

describe('validateResult: v2 trace rules', () => {
  const r = good.result;
  const check = (x: CompilationResult) => validateResult(x, REQUEST, POOL);
  it('requires each closure to be the transitive dependencies', () => {
    expect(entryOf(r, 'b').dependency_closure).toEqual(['c']);
    expect(check(editEntry(r, 'b', { dependency_closure: [] }))).toEqual(['trace closure wrong for b']);
    expect(check(editEntry(r, 'hs', { dependency_closure: ['c'] }))).toEqual(['trace closure wrong for hs']);
  });
  it('requires depth-first pre-order discovery, not breadth-first', () => {
    const deep = [cand('p', { depends_on: ['q', 'r'] }), cand('q', { depends_on: ['s'] })];
    const pool = [...deep, cand('r', { depends_on: ['s', 'p'] }), cand('s')];
    const out = compileContext(req(1000), pool, policy());
    expect(entryOf(out.result, 'p').dependency_closure).toEqual(['q', 's', 'r']);
    expect(entryOf(out.result, 'r').dependency_closure).toEqual(['s', 'p', 'q']);
    expect(validateResult(out.result, req(1000), pool)).toEqual([]);
    const bfs = editEntry(out.result, 'p', { dependency_closure: ['q', 'r', 's'] });
    expect(validateResult(bfs, req(1000), pool)).toEqual(['trace closure wrong for p']);
  });
  it('requires an admission to lower the budget by at least its own count', () => {
    const a = entryOf(r, 'a');
    expect(a.budget_before - a.budget_after).toBe(10);
    const short = editEntry(r, 'a', { budget_after: a.budget_before - 9 });
    expect(check(short)).toEqual(['trace budget did not advance for a']);
  });
  it('forbids a non-admission to raise the budget or carry pulled_in_by', () => {
    expect(entryOf(r, 'c').pulled_in_by).toEqual(['b']);
    const hs = entryOf(r, 'hs');
    expect(check(editEntry(r, 'hs', { budget_after: hs.budget_before + 1 }))).toEqual([
      'trace budget rose for hs',
    ]);
    expect(check(editEntry(r, 'hs', { pulled_in_by: ['b'] }))).toEqual([
      'trace pulled-in-by on non-admission hs',
    ]);
  });
});

describe('validateResult: a legacy v1 trace skips the v2 rules', () => {
  const r = good.result;
  const hs = entryOf(r, 'hs');
  const broken = editEntry(
    editEntry(editEntry(r, 'b', { dependency_closure: [] }), 'a', {
      budget_after: entryOf(r, 'a').budget_before,
    }),
    'hs',
    { budget_after: hs.budget_before + 1, pulled_in_by: ['b'] },
  );
  it('the same defects are reported under v2 and ignored under v1', () => {
    expect(validateResult(broken, REQUEST, POOL)).toEqual([
      'trace budget did not advance for a',
      'trace closure wrong for b',
      'trace budget rose for hs',
      'trace pulled-in-by on non-admission hs',
    ]);
    const legacy = {
      ...broken,
      trace: { ...broken.trace, schema_version: 'project_context.decision_trace.v1' },
    };
    expect(validateResult(legacy, REQUEST, POOL)).toEqual([]);
  });
  it('accepts a golden v1 result, whose closures are empty and budgets flat', () => {
    const g = JSON.parse(fs.readFileSync(path.join(GOLDEN_DIR, 'dependency-trap-medium.json'), 'utf8'));
    const { request, candidates } = at('dependency-trap', 'medium');
    const v1 = readResult(g.result);
    expect(validateResult(v1, request, candidates)).toEqual([]);
    const relabelled = { ...v1, trace: { ...v1.trace, schema_version: 'project_context.decision_trace.v2' } };
    expect(validateResult(relabelled, request, candidates)).toContain('trace closure wrong for ref-cheap');
  });
});
