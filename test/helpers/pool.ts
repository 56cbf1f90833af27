import {
  type CompilerPolicy,
  type ContextCandidate,
  type ContextRequest,
  defaultPolicy,
  SCHEMA,
} from '../../src/compiler/index.js';
import type { CaseLedger, EvalClass, Selection, StrategyInput } from '../../src/harness/types.js';

/** A legal, eligible, full-form candidate of its own content; override what the test is about. */
export function cand(id: string, over: Partial<ContextCandidate> = {}): ContextCandidate {
  return {
    schema_version: SCHEMA.candidate,
    candidate_id: id,
    content_identity: id,
    representation_id: 'full',
    form_rank: 3,
    min_rank: 0,
    source_kind: 'synthetic-fixture',
    source_ref: 'test',
    kind: 'evidence',
    content: `content of ${id}`,
    token_count: 10,
    token_source: 'fixture-declared',
    requirement: 'DISCRETIONARY',
    order_role: 'evidence',
    scope_eligible: true,
    scope_reason: 'in scope',
    freshness_eligible: true,
    freshness_reason: 'validated current',
    authority_eligible: true,
    authority_reason: 'data',
    depends_on: [],
    group_id: null,
    group_required: false,
    coverage_keys: [],
    relevance: 0.5,
    is_default_form: true,
    ...over,
  };
}

export function req(budget: number, over: Partial<ContextRequest> = {}): ContextRequest {
  return {
    schema_version: SCHEMA.request,
    request_id: 'r',
    task_id: 't',
    usable_token_budget: budget,
    created_at: '2026-01-01T00:00:00Z',
    active_scope: 'test',
    required_ids: [],
    policy_version: 'compiler-policy-v1',
    ...over,
  };
}

export const policy = (over: Partial<CompilerPolicy> = {}): CompilerPolicy => ({
  ...defaultPolicy(),
  ...over,
});
export const strictPolicy = (): CompilerPolicy => policy({ required_missing: 'refuse' });

/**
 * Rendered cost of n test candidates with the given declared counts: each carries a decoration of
 * 3 ("synthetic-fixture evidence", 2 words), separators cost 1, and the header "r t
 * compiler-policy-v1" (3 words) costs 4. Stated here from the spec, not taken from the code.
 */
export const rendered = (...counts: number[]): number =>
  counts.reduce((s, n) => s + n + 3, 0) + Math.max(0, counts.length - 1) + 4;

/** A hand-made ledger of a case that should succeed: identity -> class, or [class, minimum form]. */
export function ledger(truth: Record<string, EvalClass | [EvalClass, string]>): CaseLedger {
  const identity_truth = Object.fromEntries(
    Object.entries(truth).map(([id, t]) => {
      const [eval_class, min_representation] = typeof t === 'string' ? [t, 'full'] : t;
      return [id, { eval_class, min_representation }];
    }),
  );
  return { expected: { success: true, reason: null }, identity_truth };
}

/** compiler-v2's policy: rendered pricing, planned forms, refuse mode. */
export const v2Policy = (): CompilerPolicy =>
  policy({ pricing: 'rendered', mandatory_form: 'planned', required_missing: 'refuse' });

/** A strategy's input: `candidates` at `budget` under the reference policy, `required_ids` named. */
export const strategyInputAt = (
  budget: number,
  candidates: StrategyInput['candidates'],
  required_ids: string[] = [],
): StrategyInput => ({ request: req(budget, { required_ids }), candidates, policy: policy(), budget });

/** The ids an answer admits; a refusal fails the test, naming its reason. */
export const admittedOf = (s: Selection): readonly string[] => {
  if ('refusal' in s) throw new Error(`refused: ${s.refusal.reason}`);
  return s.admitted;
};

/** A ledger of every class: M = {m1, m2}, S = {s1}; o1 optional, d1 distractor, h1 harmful. */
export const EVERY_CLASS = ledger({
  m1: 'must',
  m2: 'must',
  s1: 'should',
  o1: 'optional',
  d1: 'distractor',
  h1: 'harmful',
});
/** A candidate of each of EVERY_CLASS's contents, and x1, which no ledger entry lists (unlabelled). */
export const everyClassPool = () => ['m1', 'm2', 's1', 'o1', 'd1', 'h1', 'x1'].map((id) => cand(id));
