/**
 * Readers of what the compiler writes (docs/compiler.md §2.4 to §2.6): items, bundles, traces,
 * failures and results, so a stored compilation can be validated or compared.
 */

import type {
  CompilationResult,
  CompileFailure,
  ContextBundle,
  ContextItem,
  DecisionTrace,
  FailureReason,
  TraceDecision,
  TraceEntry,
} from './compiler-types.js';
import { FAILURE_REASONS, SCHEMA, TRACE_DECISIONS } from './compiler-vocabulary.js';
import {
  asObject,
  checkSchema,
  coerceNumber,
  isPlainObject,
  oneOf,
  optStr,
  pyTruthy,
  RecordError,
  str,
  strList,
  strOrNull,
  traceInt,
} from './json.js';
import { byCandidateId, sortedUnique } from './order.js';

export function readItem(raw: unknown): ContextItem {
  const o = asObject(raw, 'item');
  const schema_version = checkSchema(o, 'ContextItem', [SCHEMA.item]);
  const id = str(o, 'id');
  const source = str(o, 'source');
  const kind = str(o, 'kind');
  const content = str(o, 'content');
  const position = o.position ?? 0;
  const token_count = o.token_count ?? 0;
  if (typeof position !== 'number' || typeof token_count !== 'number') {
    throw new RecordError('invalid item numbers', typeof position !== 'number' ? 'position' : 'token_count');
  }
  return {
    schema_version,
    id,
    source,
    kind,
    content,
    position,
    token_count,
    token_provenance: optStr(o, 'token_provenance', 'approximation'),
    authority: strOrNull(o, 'authority'),
    scope: strOrNull(o, 'scope'),
    observed_at: strOrNull(o, 'observed_at'),
    semantic_id: strOrNull(o, 'semantic_id'),
    ref: strOrNull(o, 'ref'),
  };
}

export function readBundle(raw: unknown): ContextBundle {
  const o = asObject(raw, 'bundle');
  const schema_version = checkSchema(o, 'ContextBundle', [SCHEMA.bundle]);
  const id = str(o, 'id');
  if (!Array.isArray(o.items)) throw new RecordError('invalid bundle items', 'items');
  const items = o.items.map(readItem);
  const created_at = str(o, 'created_at');
  const layout = o.layout_trace;
  if (!Array.isArray(layout) || !layout.every((x) => typeof x === 'string')) {
    throw new RecordError('invalid layout_trace', 'layout_trace');
  }
  const provenance = o.provenance ?? null;
  if (provenance !== null && !isPlainObject(provenance))
    throw new RecordError('invalid bundle provenance', 'provenance');
  return makeBundle({
    schema_version,
    id,
    items,
    created_at,
    layout_trace: [...layout],
    evidence_class: optStr(o, 'evidence_class', 'synthetic'),
    provenance,
  });
}

/** The bundle invariant holds for every bundle that exists, read or built. */
export function makeBundle(bundle: ContextBundle): ContextBundle {
  const ids = bundle.items.map((i) => i.id);
  if (ids.length !== bundle.layout_trace.length || ids.some((id, k) => id !== bundle.layout_trace[k])) {
    throw new RecordError('layout_trace must equal item order exactly', 'layout_trace');
  }
  return bundle;
}

export function readTraceEntry(raw: unknown): TraceEntry {
  const o = asObject(raw, 'trace entry');
  const candidate_id = str(o, 'candidate_id');
  const content_identity = str(o, 'content_identity');
  const representation_id = str(o, 'representation_id');
  const decision = oneOf<TraceDecision>(o.decision, TRACE_DECISIONS, 'TraceDecision', 'decision');
  const position = o.position ?? null;
  if (position !== null && (typeof position !== 'number' || !Number.isInteger(position))) {
    throw new RecordError('invalid position', 'position');
  }
  return {
    candidate_id,
    content_identity,
    representation_id,
    decision,
    reason_code: str(o, 'reason_code'),
    reason_detail: optStr(o, 'reason_detail', ''),
    priority_band: optStr(o, 'priority_band', ''),
    relevance: coerceNumber(o, 'relevance', 0),
    marginal_cost: traceInt(o, 'marginal_cost'),
    dependency_closure: strList(o, 'dependency_closure'),
    pulled_in_by: strList(o, 'pulled_in_by'),
    budget_before: traceInt(o, 'budget_before'),
    budget_after: traceInt(o, 'budget_after'),
    position,
  };
}

export function readTrace(raw: unknown): DecisionTrace {
  const o = asObject(raw, 'trace');
  const schema_version = checkSchema(o, 'DecisionTrace', [SCHEMA.traceV2, SCHEMA.traceV1]);
  if (!Array.isArray(o.entries)) throw new RecordError('invalid entries', 'entries');
  return {
    schema_version,
    request_id: str(o, 'request_id'),
    policy_version: str(o, 'policy_version'),
    entries: o.entries.map(readTraceEntry).sort(byCandidateId),
  };
}

/** Reading options. `anyReason`: accept a refusal reason outside the compiler's six. */
export interface ReadOptions {
  readonly anyReason?: boolean | undefined;
}

export function readFailure(raw: unknown, options: ReadOptions = {}): CompileFailure {
  const o = asObject(raw, 'failure');
  const schema_version = checkSchema(o, 'CompileFailure', [SCHEMA.failure]);
  const request_id = str(o, 'request_id');
  const policy_version = str(o, 'policy_version');
  // Other strategies may name their own refusals; the validators never read the reason.
  const reason =
    options.anyReason && typeof o.reason === 'string' && o.reason !== ''
      ? (o.reason as FailureReason)
      : oneOf<FailureReason>(o.reason, FAILURE_REASONS, 'FailureReason', 'reason');
  return {
    schema_version,
    request_id,
    policy_version,
    reason,
    blocking_ids: sortedUnique(strList(o, 'blocking_ids')),
    budget_used: traceInt(o, 'budget_used'),
    budget_total: traceInt(o, 'budget_total'),
    diagnostic: optStr(o, 'diagnostic', ''),
  };
}

export function readResult(raw: unknown, options: ReadOptions = {}): CompilationResult {
  const o = asObject(raw, 'result');
  const schema_version = checkSchema(o, 'CompilationResult', [SCHEMA.resultV2, SCHEMA.resultV1]);
  const request_id = str(o, 'request_id');
  const policy_version = str(o, 'policy_version');
  const success = pyTruthy(o.success);
  const bundle_id = o.bundle_id ?? null;
  if (bundle_id !== null && typeof bundle_id !== 'string')
    throw new RecordError('invalid bundle_id', 'bundle_id');
  const bundle_tokens = o.bundle_tokens ?? null;
  if (bundle_tokens !== null && typeof bundle_tokens !== 'number') {
    throw new RecordError('invalid bundle_tokens', 'bundle_tokens');
  }
  const bundle_hash = o.bundle_hash ?? null;
  if (bundle_hash !== null && typeof bundle_hash !== 'string') {
    throw new RecordError('invalid bundle_hash', 'bundle_hash');
  }
  const trace = readTrace(o.trace);
  const failure = o.failure === undefined || o.failure === null ? null : readFailure(o.failure, options);
  return {
    schema_version,
    request_id,
    policy_version,
    success,
    bundle_id,
    bundle_tokens,
    bundle_hash,
    trace,
    failure,
  };
}
