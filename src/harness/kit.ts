/**
 * What a strategy may use besides its input: the shared ruler (rendered cost), the hard gate,
 * the baselines' default-form pool and greedy fill, and a trace builder. Nothing here can reach
 * the ledger: strategies import this module, never `ledger.ts`.
 */
import {
  byCandidateId,
  type CompileOutput,
  type ContextCandidate,
  dependencyClosure,
  gate,
  orderByRole,
  renderedCost,
  renderedIncrement,
  type TraceEntry,
} from '../compiler/index.js';
import type { Selection, StrategyInput } from './types.js';

export type { Admission, Refusal, Selection, Strategy, StrategyInput } from './types.js';

/**
 * A compilation as a selection: the bundle's ids, or the refusal with its blocking ids, its
 * diagnostic and the budget it had used; the engine's trace travels along, so the harness
 * rebuilds exactly the result the engine produced.
 */
export function selectionOf(output: CompileOutput): Selection {
  const trace = output.result.trace.entries;
  if (output.bundle !== null) return { admitted: output.bundle.items.map((i) => i.id), trace };
  const f = output.result.failure;
  return {
    refusal: {
      reason: f.reason,
      blocking_ids: f.blocking_ids,
      diagnostic: f.diagnostic,
      budget_used: f.budget_used,
    },
    trace,
  };
}

/** True when the candidate passes scope, freshness, authority and its form floor. */
export const eligible = (c: ContextCandidate): boolean => gate(c).code === 'eligible';

/** The rendered cost of a set of candidates: the one ruler every strategy is measured with. */
export const costOf = (selected: readonly ContextCandidate[], input: StrategyInput): number =>
  renderedCost(selected, input.request, input.policy);

/**
 * The baselines' pool: each content's default form ("the natural rendering"), sorted by id. A
 * content that declares no default form contributes its cheapest form (token count, then id);
 * the reference corpus never needs that fallback.
 */
export function defaultFormPool(candidates: readonly ContextCandidate[]): ContextCandidate[] {
  const withDefault = new Set(candidates.filter((c) => c.is_default_form).map((c) => c.content_identity));
  const cheapest = new Map<string, ContextCandidate>();
  for (const c of [...candidates].sort(byCandidateId)) {
    if (withDefault.has(c.content_identity)) continue;
    const best = cheapest.get(c.content_identity);
    if (best === undefined || c.token_count < best.token_count) cheapest.set(c.content_identity, c);
  }
  return [...candidates.filter((c) => c.is_default_form), ...cheapest.values()].sort(byCandidateId);
}

/**
 * Walk the list and keep each item whose addition still renders within the budget; skip the
 * rest and go on (no early stop), so "top-k" has no fixed k.
 */
export function greedyFill(ordered: readonly ContextCandidate[], input: StrategyInput): ContextCandidate[] {
  const selected: ContextCandidate[] = [];
  let cost = costOf([], input);
  for (const c of ordered) {
    const next = cost + renderedIncrement(c, selected.length);
    if (next > input.budget) continue;
    selected.push(c);
    cost = next;
  }
  return selected;
}

/**
 * A baseline's answer: its selection, or, when even that overruns the budget (only an empty
 * bundle under a budget smaller than the bundle frame can), the failure the study specifies.
 */
export function baselineAnswer(
  input: StrategyInput,
  pool: readonly ContextCandidate[],
  kept: readonly ContextCandidate[],
  tag: string,
  why?: ReadonlyMap<string, Why>,
): Selection {
  const cost = costOf(kept, input);
  if (cost <= input.budget) {
    return { admitted: kept.map((c) => c.candidate_id), trace: baselineTrace(input, pool, kept, tag, why) };
  }
  const diagnostic = `rendered ${cost} exceeds budget ${input.budget}`;
  return {
    refusal: { reason: 'INSUFFICIENT_BUDGET', diagnostic },
    trace: baselineTrace(input, pool, [], tag, why),
  };
}

/** Sort by descending key, ties by id. */
export function rankBy(candidates: readonly ContextCandidate[], key: (c: ContextCandidate) => number) {
  return [...candidates].sort((a, b) => key(b) - key(a) || byCandidateId(a, b));
}

export interface Why {
  readonly code: string;
  readonly detail: string;
}

/**
 * A v2 trace for a plain selection: one entry per candidate. Admitted entries, in bundle order,
 * spend what they add to the rendered cost (the header with the first); everything else is
 * recorded at what remains. `why` explains the candidates left out; the default is
 * `not-selected`.
 */
export function selectionTrace(
  input: StrategyInput,
  admitted: readonly string[],
  tag: string,
  why: ReadonlyMap<string, Why> = new Map(),
): TraceEntry[] {
  const lookup = new Map(input.candidates.map((c) => [c.candidate_id, c]));
  const live = orderByRole(
    admitted.flatMap((id) => lookup.get(id) ?? []),
    input.policy.order_roles,
  );
  const spent = new Map<string, readonly [number, number, number]>();
  let cost = costOf([], input);
  live.forEach((c, position) => {
    const before = input.budget - cost;
    cost += renderedIncrement(c, position);
    spent.set(c.candidate_id, [before, input.budget - cost, position]);
  });
  const rest = admitted.length > 0 ? input.budget - cost : input.budget;
  return [...input.candidates].sort(byCandidateId).map((c) => {
    const s = spent.get(c.candidate_id);
    const reason = why.get(c.candidate_id) ?? { code: 'not-selected', detail: tag };
    return {
      candidate_id: c.candidate_id,
      content_identity: c.content_identity,
      representation_id: c.representation_id,
      decision: s ? 'ADMITTED' : 'REJECTED_BUDGET',
      reason_code: s ? 'admitted' : reason.code,
      reason_detail: s ? tag : reason.detail,
      priority_band: c.requirement,
      relevance: c.relevance,
      marginal_cost: c.token_count,
      dependency_closure: dependencyClosure(c.candidate_id, lookup).slice(1),
      pulled_in_by: [],
      budget_before: s ? s[0] : rest,
      budget_after: s ? s[1] : rest,
      position: s ? s[2] : null,
    };
  });
}

/**
 * The baselines' trace: admitted entries tagged with the strategy; a default form left out is
 * `not-selected` (or what `why` says); a form the baseline never saw is `not-default-form`.
 */
export function baselineTrace(
  input: StrategyInput,
  pool: readonly ContextCandidate[],
  admitted: readonly ContextCandidate[],
  tag: string,
  why: ReadonlyMap<string, Why> = new Map(),
): TraceEntry[] {
  const seen = new Set(pool.map((c) => c.candidate_id));
  const reasons = new Map<string, Why>();
  for (const c of input.candidates) {
    reasons.set(
      c.candidate_id,
      seen.has(c.candidate_id)
        ? (why.get(c.candidate_id) ?? { code: 'not-selected', detail: tag })
        : { code: 'not-default-form', detail: 'baselines see only default forms' },
    );
  }
  return selectionTrace(
    input,
    admitted.map((c) => c.candidate_id),
    tag,
    reasons,
  );
}
