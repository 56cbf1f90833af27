/**
 * Readers of the compiler's inputs (docs/compiler.md §2.1 to §2.3): lenient about unknown keys and
 * absent optional ones, strict about types, with the reference's error texts. Each throws a
 * RecordError.
 */

import type {
  CompilerPolicy,
  ContextCandidate,
  ContextRequest,
  Frame,
  MandatoryForm,
  OverheadTokenizer,
  Pricing,
  RequiredMissing,
  RequirementClass,
} from './compiler-types.js';
import {
  DEFAULT_ORDER_ROLES,
  DEFAULT_POLICY_VERSION,
  FRAMES,
  MANDATORY_FORMS,
  OVERHEAD_TOKENIZERS,
  PRICINGS,
  REPAIR_DROP_LAST_DISCRETIONARY,
  REQUIRED_MISSING_MODES,
  REQUIREMENT_CLASSES,
  SCHEMA,
} from './compiler-vocabulary.js';
import { checkRequestId, plannedNeedsRefuse } from './inputs.js';
import {
  asObject,
  bool,
  checkSchema,
  coerceNumber,
  type Json,
  num,
  oneOf,
  optStr,
  pyTruthy,
  quote,
  RecordError,
  str,
  strList,
  strOrNull,
} from './json.js';

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
  checkRequestId(request_id);
  const task_id = str(o, 'task_id');
  const budget = o.usable_token_budget;
  // A safe integer: past 2^53 a budget is no longer counted exactly, and the bundle's sums with it.
  if (typeof budget !== 'number' || !Number.isSafeInteger(budget) || budget < 0) {
    throw new RecordError(`invalid usable_token_budget: ${quote(budget)}`, 'usable_token_budget');
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

/** A policy setting from its word list; absent or null, its default. */
function setting<T extends string>(o: Json, field: string, allowed: readonly T[], absent: T): T {
  const v = o[field];
  return v === undefined || v === null ? absent : oneOf<T>(v, allowed, field, field);
}

export function readPolicy(raw: unknown): CompilerPolicy {
  const o = asObject(raw, 'policy');
  const schema_version = checkSchema(o, 'CompilerPolicy', [SCHEMA.policy]);
  const mandatory_form = typeof o.mandatory_form === 'string' ? o.mandatory_form : 'cheapest';
  if (!(MANDATORY_FORMS as readonly string[]).includes(mandatory_form)) {
    throw new RecordError(`unsupported mandatory_form: ${quote(mandatory_form)}`, 'mandatory_form');
  }
  let order_roles = DEFAULT_ORDER_ROLES;
  if (o.order_roles !== undefined && o.order_roles !== null) {
    if (!Array.isArray(o.order_roles) || !o.order_roles.every((r) => typeof r === 'string')) {
      throw new RecordError('invalid order_roles', 'order_roles');
    }
    order_roles = [...o.order_roles];
  }
  const required_missing = setting<RequiredMissing>(o, 'required_missing', REQUIRED_MISSING_MODES, 'omit');
  const pricing = setting<Pricing>(o, 'pricing', PRICINGS, 'declared');
  const frame = setting<Frame>(o, 'frame', FRAMES, 'v1');
  // Left out when it is the estimate, so that a policy saying so is the reference's record.
  const overhead = setting<OverheadTokenizer>(o, 'overhead_tokenizer', OVERHEAD_TOKENIZERS, 'estimate');
  plannedNeedsRefuse({ mandatory_form: mandatory_form as MandatoryForm, required_missing });
  return {
    schema_version,
    policy_version: typeof o.policy_version === 'string' ? o.policy_version : DEFAULT_POLICY_VERSION,
    min_discretionary_relevance: coerceNumber(o, 'min_discretionary_relevance', 0.3),
    mandatory_form: mandatory_form as MandatoryForm,
    order_roles,
    repair: typeof o.repair === 'string' ? o.repair : REPAIR_DROP_LAST_DISCRETIONARY,
    required_missing,
    pricing,
    frame,
    ...(overhead === 'estimate' ? {} : { overhead_tokenizer: overhead }),
  };
}
