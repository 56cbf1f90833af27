import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  bundleToJSON,
  candidateToJSON,
  compileContext,
  failureToJSON,
  itemToJSON,
  makeBundle,
  policyToJSON,
  readBundle,
  readCandidate,
  readFailure,
  readItem,
  readPolicy,
  readRequest,
  readResult,
  readTrace,
  readTraceEntry,
  requestToJSON,
  resultToJSON,
  resultToV1JSON,
  traceToJSON,
  traceToV1JSON,
} from '../../src/compiler/index.js';
import { GOLDEN_DIR } from '../helpers/corpus.js';
import { cand, policy, req } from '../helpers/pool.js';

type Json = Record<string, unknown>;

// Typed out from docs/compiler.md §2, not from the code.
const S = {
  candidate: 'project_context.context_candidate.v1',
  request: 'project_context.context_request.v1',
  policy: 'project_context.compiler_policy.v1',
  item: 'project_context.context_item.v1',
  bundle: 'project_context.context_bundle.v1',
  failure: 'project_context.compile_failure.v1',
  traceV2: 'project_context.decision_trace.v2',
  traceV1: 'project_context.decision_trace.v1',
  resultV2: 'project_context.compilation_result.v2',
  resultV1: 'project_context.compilation_result.v1',
};
const words = (text: string): string[] => text.trim().split(/\s+/);
const CANDIDATE_KEYS =
  words(`schema_version candidate_id content_identity representation_id form_rank min_rank
  source_kind source_ref kind content token_count token_source requirement order_role scope_eligible scope_reason
  freshness_eligible freshness_reason authority_eligible authority_reason depends_on group_id group_required
  coverage_keys relevance is_default_form`);
const REQUEST_KEYS = words(`schema_version request_id task_id usable_token_budget created_at active_scope
  required_ids policy_version`);
// The reference's six keys, then ctxbench's `required_missing`, `pricing` and `frame` extensions.
const POLICY_KEYS =
  words(`schema_version policy_version min_discretionary_relevance mandatory_form order_roles
  repair required_missing pricing frame`);
const ITEM_KEYS = words(`schema_version id source kind content position token_count token_provenance authority
  scope observed_at semantic_id ref`);
const BUNDLE_KEYS = words('schema_version id items created_at layout_trace evidence_class provenance');
const ENTRY_V2_KEYS =
  words(`candidate_id content_identity representation_id decision reason_code reason_detail
  priority_band relevance marginal_cost dependency_closure pulled_in_by budget_before budget_after position`);
const ENTRY_V1_KEYS =
  words(`candidate_id content_identity representation_id decision reason_code reason_detail
  priority_band relevance marginal_cost dependency_closure budget_before budget_after position`);
const TRACE_KEYS = words('schema_version request_id policy_version entries');
const FAILURE_KEYS =
  words(`schema_version request_id policy_version reason blocking_ids budget_used budget_total
  diagnostic`);
const RESULT_KEYS =
  words(`schema_version request_id policy_version success bundle_id bundle_tokens bundle_hash
  trace failure`);

const thrown = (f: () => unknown): string => {
  try {
    f();
  } catch (e) {
    return e instanceof Error ? e.message : String(e);
  }
  return '(nothing thrown)';
};
const json = (x: unknown): Json => JSON.parse(JSON.stringify(x)) as Json;
const without = (o: Json, key: string): Json =>
  Object.fromEntries(Object.entries(o).filter(([k]) => k !== key));
const pick = (o: Json, keys: readonly string[]): Json => Object.fromEntries(keys.map((k) => [k, o[k]]));
const golden = (name: string): Json =>
  JSON.parse(fs.readFileSync(path.join(GOLDEN_DIR, `${name}.json`), 'utf8')) as Json;

// root (ranked first) depends on dep: the v2 trace carries a closure, a pull and one budget drop.
const hard = cand('h', { scope_eligible: false });
const pool = [cand('root', { depends_on: ['dep'], relevance: 0.9 }), cand('dep'), hard];
const ok = compileContext(req(200), pool, policy());
const mandatory = [cand('m', { requirement: 'MANDATORY' })];
const refused = compileContext(req(5, { request_id: 'r2' }), mandatory, policy());
function lost(what: string): never {
  throw new Error(`fixture lost its ${what}`);
}
const okBundle = ok.bundle ?? lost('bundle');
const firstItem = okBundle.items[0] ?? lost('item');
const failure = refused.result.failure ?? lost('failure');
const root = pool[0] ?? lost('candidate');
// The keys §2.1 marks required; everything else must default.
const minimalCandidate = pick(
  json(cand('c1')),
  words(`candidate_id content_identity representation_id form_rank min_rank source_kind source_ref kind content
  token_count requirement order_role scope_eligible freshness_eligible authority_eligible`),
);

describe('candidate reader defaults and coercions', () => {
  it('fills every optional key with the spec default', () => {
    const c = readCandidate(minimalCandidate);
    expect(c.schema_version).toBe(S.candidate);
    expect(c.token_source).toBe('approximation');
    expect([c.scope_reason, c.freshness_reason, c.authority_reason]).toEqual(['', '', '']);
    expect([c.depends_on, c.coverage_keys, c.group_id, c.group_required]).toEqual([[], [], null, false]);
    expect([c.relevance, c.is_default_form]).toEqual([0, false]);
  });
  // Values as JSON text.
  const truthiness = [
    ...['[]', '0', '""', '{}'].map((t) => [t, false]),
    ...['[0]', '"false"', '2'].map((t) => [t, true]),
  ];
  it.each(truthiness)('group_required %s reads as %s (Python truthiness)', (text, want) => {
    const v: unknown = JSON.parse(String(text));
    expect(readCandidate({ ...minimalCandidate, group_required: v }).group_required).toBe(want);
    expect(readCandidate({ ...minimalCandidate, is_default_form: v }).is_default_form).toBe(want);
  });
  const numeric = { '"0.75"': 0.75, '" 0.5 "': 0.5, '"1e-1"': 0.1, '1': 1, true: 1 };
  it.each(Object.entries(numeric))('relevance %s coerces to %s', (text, want) => {
    expect(readCandidate({ ...minimalCandidate, relevance: JSON.parse(text) }).relevance).toBe(want);
  });
  const bad = { relevance: 'x', scope_eligible: 1, token_count: '1', group_id: 5, depends_on: 'd', kind: 7 };
  it.each(Object.entries(bad))('%s = %j throws invalid <key>', (key, v) => {
    expect(thrown(() => readCandidate({ ...minimalCandidate, [key]: v }))).toBe(`invalid ${key}`);
  });
  it('rejects an unknown requirement class', () => {
    expect(thrown(() => readCandidate({ ...minimalCandidate, requirement: 'OPTIONAL' }))).toBe(
      'unsupported RequirementClass: "OPTIONAL"',
    );
  });
});

describe('request and policy readers', () => {
  const raw = { request_id: 'r', task_id: 't', usable_token_budget: 0, created_at: 'now' };
  it('defaults active_scope, required_ids, policy_version and the schema', () => {
    expect(readRequest(raw)).toEqual({
      ...{ schema_version: S.request, request_id: 'r', task_id: 't', usable_token_budget: 0 },
      ...{ created_at: 'now', active_scope: '', required_ids: [], policy_version: 'compiler-policy-v1' },
    });
  });
  it.each(['-1', '1.5', '"100"'])('budget %s throws invalid usable_token_budget: %s', (text) => {
    const budget: unknown = JSON.parse(text);
    expect(thrown(() => readRequest({ ...raw, usable_token_budget: budget }))).toBe(
      `invalid usable_token_budget: ${text}`,
    );
  });
  const defaults = {
    ...{ schema_version: S.policy, policy_version: 'compiler-policy-v1', min_discretionary_relevance: 0.3 },
    ...{ mandatory_form: 'cheapest', repair: 'drop-last-discretionary', required_missing: 'omit' },
    pricing: 'declared',
    frame: 'v1',
    order_roles: ['instruction', 'task', 'state', 'evidence', 'support', 'tool'],
  };
  it('reads {} as compiler-policy-v1 and replaces non-string strings by their defaults', () => {
    expect(readPolicy({})).toEqual(defaults);
    expect(readPolicy({ policy_version: 3, mandatory_form: 5, repair: 7 })).toEqual(defaults);
  });
  it('coerces the threshold and keeps unknown repair strings', () => {
    const p = readPolicy({ min_discretionary_relevance: '0.45', repair: 'none', order_roles: ['tool'] });
    expect([p.min_discretionary_relevance, p.repair, p.order_roles]).toEqual([0.45, 'none', ['tool']]);
  });
  it('refuses a mandatory_form other than cheapest at read time, and bad order_roles', () => {
    expect(thrown(() => readPolicy({ mandatory_form: 'x' }))).toBe('unsupported mandatory_form: "x"');
    expect(thrown(() => readPolicy({ order_roles: ['task', 1] }))).toBe('invalid order_roles');
    expect(thrown(() => readPolicy({ order_roles: 'task' }))).toBe('invalid order_roles');
  });
  it('reads the ctxbench required_missing extension: omit by default, refuse, nothing else', () => {
    expect(readPolicy({ required_missing: 'refuse' }).required_missing).toBe('refuse');
    for (const bad of ['REFUSE', 'skip', 1]) expect(() => readPolicy({ required_missing: bad })).toThrow();
  });
  it('reads the ctxbench pricing extension: declared by default, rendered, nothing else', () => {
    expect(readPolicy({ pricing: 'rendered' }).pricing).toBe('rendered');
    expect(readPolicy({ pricing: null }).pricing).toBe('declared');
    expect(thrown(() => readPolicy({ pricing: 'exact' }))).toBe('unsupported pricing: "exact"');
  });
  it('reads the ctxbench frame extension: v1 by default, v2, nothing else', () => {
    expect(readPolicy({ frame: 'v2' }).frame).toBe('v2');
    expect(readPolicy({ frame: null }).frame).toBe('v1');
    expect(thrown(() => readPolicy({ frame: 'v3' }))).toBe('unsupported frame: "v3"');
  });
  it('reads the ctxbench mandatory_form "planned", only with refuse mode, and nothing else new', () => {
    expect(readPolicy({ mandatory_form: 'planned', required_missing: 'refuse' }).mandatory_form).toBe(
      'planned',
    );
    expect(thrown(() => readPolicy({ mandatory_form: 'planned' }))).toBe(
      'mandatory_form "planned" needs required_missing "refuse"',
    );
    expect(thrown(() => readPolicy({ mandatory_form: 'Planned' }))).toBe(
      'unsupported mandatory_form: "Planned"',
    );
  });
});

describe('item and bundle readers', () => {
  const item = { id: 'i', source: 's', kind: 'k', content: 'c' };
  it('defaults an item and requires numeric position and token_count', () => {
    expect(readItem(item)).toEqual({
      ...{ schema_version: S.item, ...item, position: 0, token_count: 0, token_provenance: 'approximation' },
      ...{ authority: null, scope: null, observed_at: null, semantic_id: null, ref: null },
    });
    expect(thrown(() => readItem({ ...item, position: '1' }))).toBe('invalid item numbers');
    expect(thrown(() => readItem({ ...item, token_count: '5' }))).toBe('invalid item numbers');
  });
  const b = json(bundleToJSON(okBundle));
  it('defaults evidence_class and keeps an object provenance', () => {
    const read = readBundle({ ...without(b, 'evidence_class'), provenance: { by: 'x' } });
    expect([read.evidence_class, read.provenance]).toEqual(['synthetic', { by: 'x' }]);
  });
  it.each([
    [{ layout_trace: ['root', 'dep'] }, 'layout_trace must equal item order exactly'],
    [{ layout_trace: ['dep'] }, 'layout_trace must equal item order exactly'],
    [{ items: 'x' }, 'invalid bundle items'],
    [{ layout_trace: 'root' }, 'invalid layout_trace'],
    [{ provenance: 'x' }, 'invalid bundle provenance'],
  ])('%j throws %s', (change, message) => {
    expect(thrown(() => readBundle({ ...b, ...change }))).toBe(message);
  });
  it('makeBundle refuses a layout that is not the item order', () => {
    expect(okBundle.layout_trace).toEqual(['dep', 'root']);
    expect(thrown(() => makeBundle({ ...okBundle, layout_trace: ['root', 'dep'] }))).toBe(
      'layout_trace must equal item order exactly',
    );
  });
});

describe('trace, failure and result readers', () => {
  const entry = { candidate_id: 'x', content_identity: 'x', representation_id: 'full', decision: 'ADMITTED' };
  it('defaults an entry and parses its integers base 10', () => {
    const e = readTraceEntry({ ...entry, reason_code: 'admitted', marginal_cost: 12.7, budget_before: '40' });
    expect([e.reason_detail, e.priority_band, e.relevance, e.position]).toEqual(['', '', 0, null]);
    expect([e.marginal_cost, e.budget_before, e.budget_after]).toEqual([12, 40, 0]);
    expect([e.dependency_closure, e.pulled_in_by]).toEqual([[], []]);
  });
  it('rejects decisions outside the six, including the dropped REJECTED_GROUP', () => {
    const bad = { ...entry, decision: 'REJECTED_GROUP', reason_code: 'x' };
    expect(thrown(() => readTraceEntry(bad))).toBe('unsupported TraceDecision: "REJECTED_GROUP"');
  });
  it('sorts entries by candidate id in code-unit order', () => {
    const entries = ['b', 'a', 'B'].map((id) => ({ ...entry, candidate_id: id, reason_code: 'admitted' }));
    const t = readTrace({ request_id: 'r', policy_version: 'p', entries });
    expect([t.schema_version, ...t.entries.map((e) => e.candidate_id)]).toEqual([S.traceV2, 'B', 'a', 'b']);
  });
  it('sorts and de-duplicates failure blocking_ids and checks the reason', () => {
    const f = json(failureToJSON(failure));
    expect(readFailure({ ...f, blocking_ids: ['b', 'a', 'b'] }).blocking_ids).toEqual(['a', 'b']);
    expect(thrown(() => readFailure({ ...f, reason: 'OUT_OF_BUDGET' }))).toBe(
      'unsupported FailureReason: "OUT_OF_BUDGET"',
    );
  });
  const r = json(resultToJSON(ok.result));
  it('coerces success by truthiness and types the bundle fields', () => {
    const success = (v: unknown) => readResult({ ...r, success: v }).success;
    expect([success(1), success(''), success([]), success('no')]).toEqual([true, false, false, true]);
    expect(thrown(() => readResult({ ...r, bundle_id: 5 }))).toBe('invalid bundle_id');
    expect(thrown(() => readResult({ ...r, bundle_tokens: '5' }))).toBe('invalid bundle_tokens');
    expect(thrown(() => readResult({ ...r, bundle_hash: 5 }))).toBe('invalid bundle_hash');
  });
});

describe('schema_version and non-objects on read', () => {
  const written: [string, string, (x: unknown) => unknown, Json, string][] = [
    ['ContextCandidate', 'candidate', readCandidate, json(candidateToJSON(root)), S.candidate],
    ['ContextRequest', 'request', readRequest, json(requestToJSON(req(10))), S.request],
    ['CompilerPolicy', 'policy', readPolicy, json(policyToJSON(policy())), S.policy],
    ['ContextItem', 'item', readItem, json(itemToJSON(firstItem)), S.item],
    ['ContextBundle', 'bundle', readBundle, json(bundleToJSON(okBundle)), S.bundle],
    ['DecisionTrace', 'trace', readTrace, json(traceToJSON(ok.result.trace)), S.traceV2],
    ['CompileFailure', 'failure', readFailure, json(failureToJSON(failure)), S.failure],
    ['CompilationResult', 'result', readResult, json(resultToJSON(ok.result)), S.resultV2],
  ];
  it.each(written)('%s: absent means current, a foreign string throws', (name, _, read, doc, current) => {
    expect((read(without(doc, 'schema_version')) as Json).schema_version).toBe(current);
    const foreign = 'project_context.other_record.v9';
    expect(thrown(() => read({ ...doc, schema_version: foreign }))).toBe(
      `unsupported ${name} schema: "${foreign}"`,
    );
  });
  it('trace and result also accept their v1 strings, but not each other', () => {
    const t = json(traceToJSON(ok.result.trace));
    expect(readTrace({ ...t, schema_version: S.traceV1 }).schema_version).toBe(S.traceV1);
    expect(thrown(() => readTrace({ ...t, schema_version: S.resultV2 }))).toBe(
      `unsupported DecisionTrace schema: "${S.resultV2}"`,
    );
  });
  const readers = [
    ...written.map(([, thing, read]) => [thing, read] as const),
    ['trace entry', readTraceEntry] as const,
  ];
  it.each(readers)('%s: arrays, null and strings are not objects', (thing, read) => {
    for (const v of [[], null, 'x']) expect(thrown(() => read(v))).toBe(`${thing} is not an object`);
  });
});

describe('writers: every field, in the spec order, null for absent values', () => {
  const t = json(traceToJSON(ok.result.trace));
  const entries = t.entries as Json[];
  it.each([
    ['candidate', candidateToJSON(root), CANDIDATE_KEYS, S.candidate],
    ['request', requestToJSON(req(10)), REQUEST_KEYS, S.request],
    ['policy', policyToJSON(policy()), POLICY_KEYS, S.policy],
    ['item', itemToJSON(firstItem), ITEM_KEYS, S.item],
    ['bundle', bundleToJSON(okBundle), BUNDLE_KEYS, S.bundle],
    ['trace', t, TRACE_KEYS, S.traceV2],
    ['failure', failureToJSON(failure), FAILURE_KEYS, S.failure],
    ['result', resultToJSON(ok.result), RESULT_KEYS, S.resultV2],
    ['failed result', resultToJSON(refused.result), RESULT_KEYS, S.resultV2],
  ])('%s', (_, doc, keys, schema) => {
    expect(Object.keys(doc)).toEqual(keys);
    expect((doc as Json).schema_version).toBe(schema);
  });
  it('writes v2 trace entries with all fourteen keys', () => {
    for (const e of entries) expect(Object.keys(e)).toEqual(ENTRY_V2_KEYS);
  });
  it('writes absent optional values as null, never omitted', () => {
    const text = JSON.stringify(candidateToJSON(readCandidate(minimalCandidate)));
    expect(text).toContain('"group_id":null');
    const i = JSON.stringify(itemToJSON(readItem({ id: 'i', source: 's', kind: 'k', content: 'c' })));
    expect(i).toContain('"authority":null,"scope":null,"observed_at":null,"semantic_id":null,"ref":null}');
    expect(JSON.stringify(bundleToJSON(okBundle))).toMatch(/"provenance":null}$/);
    expect(json(resultToJSON(ok.result)).failure).toBeNull();
    const refusal = pick(json(resultToJSON(refused.result)), ['bundle_id', 'bundle_tokens', 'bundle_hash']);
    expect(Object.values(refusal)).toEqual([null, null, null]);
    expect(entries.find((e) => e.candidate_id === 'h')?.position).toBeNull();
  });
});

describe('v1 projection (§15)', () => {
  const v1 = json(traceToV1JSON(ok.result.trace));
  const byId = (doc: Json, id: string) => (doc.entries as Json[]).find((e) => e.candidate_id === id) ?? {};
  it('is the v2 trace less pulled_in_by, with no closure and budget_after = budget_before', () => {
    const v2 = json(traceToJSON(ok.result.trace));
    expect(byId(v2, 'dep')).toMatchObject({ pulled_in_by: ['root'], budget_before: 200, budget_after: 180 });
    expect(byId(v2, 'root').dependency_closure).toEqual(['dep']);
    expect(v1.schema_version).toBe(S.traceV1);
    for (const id of ['dep', 'h', 'root']) {
      const want = { ...without(byId(v2, id), 'pulled_in_by'), dependency_closure: [] };
      expect(byId(v1, id)).toEqual({ ...want, budget_after: byId(v2, id).budget_before });
      expect(Object.keys(byId(v1, id))).toEqual(ENTRY_V1_KEYS);
    }
  });
  it('writes the result with v1 schema strings and the projected trace', () => {
    const r = json(resultToV1JSON(ok.result));
    expect([Object.keys(r), r.schema_version, r.trace]).toEqual([RESULT_KEYS, S.resultV1, v1]);
  });
});

describe('legacy v1 documents round-trip byte for byte', () => {
  const v1Trace = (t: Json) => ({
    ...pick(t, TRACE_KEYS),
    entries: (t.entries as Json[]).map((e) => pick(e, ENTRY_V1_KEYS)),
  });
  const v1Result = (r: Json) => ({
    ...pick(r, RESULT_KEYS),
    trace: v1Trace(r.trace as Json),
    failure: r.failure === null ? null : pick(r.failure as Json, FAILURE_KEYS),
  });
  it.each(['dependency-trap-medium', 'mandatory-overflow-tight'])('%s', (name) => {
    const g = golden(name);
    const entries = (g.trace as Json).entries as Json[];
    for (const e of entries) expect(Object.keys(e).sort()).toEqual([...ENTRY_V1_KEYS].sort());
    expect(JSON.stringify(traceToJSON(readTrace(g.trace)))).toBe(JSON.stringify(v1Trace(g.trace as Json)));
    const written = JSON.stringify(resultToJSON(readResult(g.result)));
    expect(written).toBe(JSON.stringify(v1Result(g.result as Json)));
    expect(written).toContain(`"schema_version":"${S.resultV1}"`);
  });
});
