/**
 * Trace records as the engine and the harness build them (docs/compiler.md §8.4, §8.5, §15):
 * one constructor for an entry, so every entry anyone writes has the same fields.
 */
import type { ContextCandidate, DecisionTrace, TraceEntry } from './compiler-types.js';
import { SCHEMA } from './compiler-vocabulary.js';

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/** An entry while a compilation still edits it (repair rewrites, positions come last). */
export type WorkingEntry = Mutable<TraceEntry>;

/** What a decision says beyond the candidate's own fields. */
export type Decision = Omit<
  TraceEntry,
  'candidate_id' | 'content_identity' | 'representation_id' | 'relevance'
>;

export const traceEntry = (c: ContextCandidate, d: Decision): WorkingEntry => ({
  candidate_id: c.candidate_id,
  content_identity: c.content_identity,
  representation_id: c.representation_id,
  decision: d.decision,
  reason_code: d.reason_code,
  reason_detail: d.reason_detail,
  priority_band: d.priority_band,
  relevance: c.relevance,
  marginal_cost: d.marginal_cost,
  dependency_closure: d.dependency_closure,
  pulled_in_by: d.pulled_in_by,
  budget_before: d.budget_before,
  budget_after: d.budget_after,
  position: d.position,
});

/** A v2 trace around entries the caller has already sorted by candidate id. */
export const makeTrace = (
  request: { readonly request_id: string },
  policy: { readonly policy_version: string },
  sortedEntries: readonly TraceEntry[],
): DecisionTrace => ({
  schema_version: SCHEMA.traceV2,
  request_id: request.request_id,
  policy_version: policy.policy_version,
  entries: sortedEntries,
});
