/**
 * The record readers (docs/compiler.md §2): lenient about unknown keys and absent optional ones,
 * strict about types, with the reference's error texts. Each throws a {@link RecordError}.
 */
import {
  asObject,
  bool,
  checkSchema,
  coerceNumber,
  isPlainObject,
  num,
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
import type {
  CompilationResult,
  CompileFailure,
  CompilerPolicy,
  ContextBundle,
  ContextCandidate,
  ContextItem,
  ContextRequest,
  DecisionTrace,
  FailureReason,
  RequiredMissing,
  RequirementClass,
  TraceDecision,
  TraceEntry,
} from './types.js';
import {
  DEFAULT_ORDER_ROLES,
  DEFAULT_POLICY_VERSION,
  FAILURE_REASONS,
  REPAIR_DROP_LAST_DISCRETIONARY,
  REQUIRED_MISSING_MODES,
  REQUIREMENT_CLASSES,
  SCHEMA,
  TRACE_DECISIONS,
} from './vocabulary.js';

export function readCandidate(raw: unknown): ContextCandidate {
  const o = asObject(raw, 'candidate');
  return {
    schema_version: checkSchema(o, 'ContextCandidate', [SCHEMA.candidate]),
    candidate_id: str(o, 'candidate_id'),
    content_identity: str(o, 'content_identity'),
    representation_id: str(o, 'representation_id'),
    form_rank: num(o, 'form_rank'),
    min_rank: num(o, 'min_rank'),
    source_kind: str(o, 'source_kind'),
    source_ref: str(o, 'source_ref'),
    kind: str(o, 'kind'),
    content: str(o, 'content'),
    token_count: num(o, 'token_count'),
    token_source: optStr(o, 'token_source', 'approximation'),
    requirement: oneOf<RequirementClass>(
      o.requirement,
      REQUIREMENT_CLASSES,
      'RequirementClass',
      'requirement',
    ),
    order_role: str(o, 'order_role'),
    scope_eligible: bool(o, 'scope_eligible'),
    scope_reason: optStr(o, 'scope_reason', ''),
    freshness_eligible: bool(o, 'freshness_eligible'),
    freshness_reason: optStr(o, 'freshness_reason', ''),
    authority_eligible: bool(o, 'authority_eligible'),
    authority_reason: optStr(o, 'authority_reason', ''),
    depends_on: strList(o, 'depends_on'),
    group_id: strOrNull(o, 'group_id'),
    group_required: pyTruthy(o.group_required),
    coverage_keys: strList(o, 'coverage_keys'),
    relevance: coerceNumber(o, 'relevance', 0),
    is_default_form: pyTruthy(o.is_default_form),
  };
}

export function readRequest(raw: unknown): ContextRequest {
  const o = asObject(raw, 'request');
  const schema_version = checkSchema(o, 'ContextRequest', [SCHEMA.request]);
  const request_id = str(o, 'request_id');
  const task_id = str(o, 'task_id');
  const budget = o.usable_token_budget;
  if (typeof budget !== 'number' || !Number.isInteger(budget) || budget < 0) {
    throw new RecordError(
      `invalid usable_token_budget: ${JSON.stringify(budget ?? null)}`,
      'usable_token_budget',
    );
  }
  return {
    schema_version,
    request_id,
    task_id,
    usable_token_budget: budget,
    created_at: str(o, 'created_at'),
    active_scope: optStr(o, 'active_scope', ''),
    required_ids: strList(o, 'required_ids'),
    policy_version: optStr(o, 'policy_version', DEFAULT_POLICY_VERSION),
  };
}

export function readPolicy(raw: unknown): CompilerPolicy {
  const o = asObject(raw, 'policy');
  const schema_version = checkSchema(o, 'CompilerPolicy', [SCHEMA.policy]);
  const mandatory_form = typeof o.mandatory_form === 'string' ? o.mandatory_form : 'cheapest';
  if (mandatory_form !== 'cheapest') {
    throw new RecordError(`unsupported mandatory_form: ${JSON.stringify(mandatory_form)}`, 'mandatory_form');
  }
  let order_roles = DEFAULT_ORDER_ROLES;
  if (o.order_roles !== undefined && o.order_roles !== null) {
    if (!Array.isArray(o.order_roles) || !o.order_roles.every((r) => typeof r === 'string')) {
      throw new RecordError('invalid order_roles', 'order_roles');
    }
    order_roles = [...o.order_roles];
  }
  const required_missing =
    o.required_missing === undefined || o.required_missing === null
      ? 'omit'
      : oneOf<RequiredMissing>(
          o.required_missing,
          REQUIRED_MISSING_MODES,
          'required_missing',
          'required_missing',
        );
  return {
    schema_version,
    policy_version: typeof o.policy_version === 'string' ? o.policy_version : DEFAULT_POLICY_VERSION,
    min_discretionary_relevance: coerceNumber(o, 'min_discretionary_relevance', 0.3),
    mandatory_form,
    order_roles,
    repair: typeof o.repair === 'string' ? o.repair : REPAIR_DROP_LAST_DISCRETIONARY,
    required_missing,
  };
}

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
