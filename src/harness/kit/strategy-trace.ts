/** Traces for strategies that keep none: one entry per candidate, as the compiler writes them. */
import {
  byCandidateId,
  type ContextCandidate,
  dependencyClosure,
  GATE_CODES,
  gate,
  orderByRole,
  renderedIncrement,
  type TraceEntry,
  traceEntry,
} from '../../compiler/index.js';
import type { StrategyInput } from '../types.js';
import { costOf } from './ruler.js';

/** The codes of the four hard gates' failures. */
const GATE_FAILURES: ReadonlySet<string> = new Set(GATE_CODES.filter((code) => code !== 'eligible'));

/** Why a candidate the strategy did not explain was left out. */
function byDefault(c: ContextCandidate, tag: string): Why {
  const verdict = gate(c);
  return verdict.code === 'eligible' ? { code: 'not-selected', detail: tag } : verdict;
}

/** Why a candidate was left out: a trace entry's reason code and detail. */
export interface Why {
  readonly code: string;
  readonly detail: string;
}

/**
 * A v2 trace for a plain selection: one entry per candidate. Admitted entries, in bundle order,
 * spend what they add to the rendered cost (the header with the first); everything else is
 * recorded at what remains. `why` explains the candidates left out. Without it, a candidate that
 * fails a hard gate is rejected by that gate (REJECTED_HARD and the gate's code: a bundle holding
 * it would be illegal), any other is `not-selected`. A `why` that names a gate is REJECTED_HARD too.
 * Bundle order is the policy's role order, or `admitted` as given when `layout` is `"own"` (a
 * strategy that returns `layout: "own"` and writes its own trace passes the same).
 */
export function selectionTrace(
  input: StrategyInput,
  admitted: readonly string[],
  tag: string,
  why: ReadonlyMap<string, Why> = new Map(),
  layout: 'policy' | 'own' = 'policy',
): TraceEntry[] {
  const lookup = new Map(input.candidates.map((c) => [c.candidate_id, c]));
  const chosen = admitted.flatMap((id) => lookup.get(id) ?? []);
  const live = layout === 'own' ? chosen : orderByRole(chosen, input.policy.order_roles);
  const spent = new Map<string, readonly [number, number, number]>();
  let cost = costOf([], input);
  live.forEach((c, position) => {
    const before = input.budget - cost;
    cost += renderedIncrement(c, position, input.policy);
    spent.set(c.candidate_id, [before, input.budget - cost, position]);
  });
  const rest = admitted.length > 0 ? input.budget - cost : input.budget;
  return [...input.candidates].sort(byCandidateId).map((c) => {
    const s = spent.get(c.candidate_id);
    const reason = why.get(c.candidate_id) ?? byDefault(c, tag);
    return traceEntry(c, {
      decision: s ? 'ADMITTED' : GATE_FAILURES.has(reason.code) ? 'REJECTED_HARD' : 'REJECTED_BUDGET',
      reason_code: s ? 'admitted' : reason.code,
      reason_detail: s ? tag : reason.detail,
      priority_band: c.requirement,
      marginal_cost: c.token_count,
      dependency_closure: dependencyClosure(c.candidate_id, lookup).slice(1),
      pulled_in_by: [],
      budget_before: s ? s[0] : rest,
      budget_after: s ? s[1] : rest,
      position: s ? s[2] : null,
    });
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
  layout: 'policy' | 'own' = 'policy',
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
    layout,
  );
}
