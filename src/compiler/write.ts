import type {
  CompilationResult,
  CompileFailure,
  CompilerPolicy,
  ContextBundle,
  ContextCandidate,
  ContextItem,
  ContextRequest,
  DecisionTrace,
  TraceEntry,
} from './compiler-types.js';
import { SCHEMA } from './compiler-vocabulary.js';

/*
 * Writers return plain objects whose key order is the record's write order (docs/compiler.md
 * §2.7), so JSON.stringify of them is the record's canonical JSON. Every field is written;
 * absent optional values are null, never omitted. Lists are shared with the record, not copied:
 * records are read-only, and a trace can hold a hundred thousand entries.
 */

export const candidateToJSON = (c: ContextCandidate) => ({
  schema_version: c.schema_version,
  candidate_id: c.candidate_id,
  content_identity: c.content_identity,
  representation_id: c.representation_id,
  form_rank: c.form_rank,
  min_rank: c.min_rank,
  source_kind: c.source_kind,
  source_ref: c.source_ref,
  kind: c.kind,
  content: c.content,
  token_count: c.token_count,
  token_source: c.token_source,
  requirement: c.requirement,
  order_role: c.order_role,
  scope_eligible: c.scope_eligible,
  scope_reason: c.scope_reason,
  freshness_eligible: c.freshness_eligible,
  freshness_reason: c.freshness_reason,
  authority_eligible: c.authority_eligible,
  authority_reason: c.authority_reason,
  depends_on: c.depends_on,
  group_id: c.group_id,
  group_required: c.group_required,
  coverage_keys: c.coverage_keys,
  relevance: c.relevance,
  is_default_form: c.is_default_form,
});

export const requestToJSON = (r: ContextRequest) => ({
  schema_version: r.schema_version,
  request_id: r.request_id,
  task_id: r.task_id,
  usable_token_budget: r.usable_token_budget,
  created_at: r.created_at,
  active_scope: r.active_scope,
  required_ids: r.required_ids,
  policy_version: r.policy_version,
});

export const policyToJSON = (p: CompilerPolicy) => ({
  schema_version: p.schema_version,
  policy_version: p.policy_version,
  min_discretionary_relevance: p.min_discretionary_relevance,
  mandatory_form: p.mandatory_form,
  order_roles: p.order_roles,
  repair: p.repair,
  required_missing: p.required_missing,
  pricing: p.pricing,
  frame: p.frame,
  // Written only when it is not the estimate: every policy written before it stays byte-identical.
  ...(p.overhead_tokenizer === undefined || p.overhead_tokenizer === 'estimate'
    ? {}
    : { overhead_tokenizer: p.overhead_tokenizer }),
});

export const itemToJSON = (i: ContextItem) => ({
  schema_version: i.schema_version,
  id: i.id,
  source: i.source,
  kind: i.kind,
  content: i.content,
  position: i.position,
  token_count: i.token_count,
  token_provenance: i.token_provenance,
  authority: i.authority,
  scope: i.scope,
  observed_at: i.observed_at,
  semantic_id: i.semantic_id,
  ref: i.ref,
});

export const bundleToJSON = (b: ContextBundle) => ({
  schema_version: b.schema_version,
  id: b.id,
  items: b.items.map(itemToJSON),
  created_at: b.created_at,
  layout_trace: b.layout_trace,
  evidence_class: b.evidence_class,
  provenance: b.provenance,
});

export const isLegacyTrace = (t: DecisionTrace): boolean => t.schema_version === SCHEMA.traceV1;

const entryV2 = (e: TraceEntry) => ({
  candidate_id: e.candidate_id,
  content_identity: e.content_identity,
  representation_id: e.representation_id,
  decision: e.decision,
  reason_code: e.reason_code,
  reason_detail: e.reason_detail,
  priority_band: e.priority_band,
  relevance: e.relevance,
  marginal_cost: e.marginal_cost,
  dependency_closure: e.dependency_closure,
  pulled_in_by: e.pulled_in_by,
  budget_before: e.budget_before,
  budget_after: e.budget_after,
  position: e.position,
});

/** v1 keeps v2's key positions, without `pulled_in_by`. */
const entryV1 = (e: TraceEntry) => {
  const { pulled_in_by: _dropped, ...rest } = entryV2(e);
  return rest;
};

/** A trace as it is: v2, or a legacy v1 trace written back as the v1 it was read from. */
export const traceToJSON = (t: DecisionTrace) => ({
  schema_version: t.schema_version,
  request_id: t.request_id,
  policy_version: t.policy_version,
  entries: t.entries.map(isLegacyTrace(t) ? entryV1 : entryV2),
});

/**
 * The v1 projection the Python goldens hold (docs/compiler.md §15): no `pulled_in_by`, an empty
 * `dependency_closure` and `budget_after` equal to `budget_before` (the two known v1 trace
 * defects).
 */
export const traceToV1JSON = (t: DecisionTrace) => ({
  schema_version: SCHEMA.traceV1,
  request_id: t.request_id,
  policy_version: t.policy_version,
  entries: t.entries.map((e) => entryV1({ ...e, dependency_closure: [], budget_after: e.budget_before })),
});

export const failureToJSON = (f: CompileFailure) => ({
  schema_version: f.schema_version,
  request_id: f.request_id,
  policy_version: f.policy_version,
  reason: f.reason,
  blocking_ids: f.blocking_ids,
  budget_used: f.budget_used,
  budget_total: f.budget_total,
  diagnostic: f.diagnostic,
});

const resultWith = (r: CompilationResult, schema: string, trace: unknown) => ({
  schema_version: schema,
  request_id: r.request_id,
  policy_version: r.policy_version,
  success: r.success,
  bundle_id: r.bundle_id,
  bundle_tokens: r.bundle_tokens,
  bundle_hash: r.bundle_hash,
  trace,
  failure: r.failure === null ? null : failureToJSON(r.failure),
});

/** v2, unless the trace is a legacy v1 trace, in which case the whole result is v1. */
export const resultToJSON = (r: CompilationResult) =>
  resultWith(r, isLegacyTrace(r.trace) ? SCHEMA.resultV1 : SCHEMA.resultV2, traceToJSON(r.trace));

export const resultToV1JSON = (r: CompilationResult) =>
  resultWith(r, SCHEMA.resultV1, traceToV1JSON(r.trace));
