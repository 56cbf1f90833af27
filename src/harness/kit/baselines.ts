/** The baselines' shared moves: the default-form pool, greedy fill, ranking, and their answer. */
import { byCandidateId, type ContextCandidate, renderedIncrement } from '../../compiler/index.js';
import type { Selection, StrategyInput } from '../types.js';
import { costOf } from './ruler.js';
import { baselineTrace, type Why } from './strategy-trace.js';

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
 * How many contents a published ranking lists (`extras.ranked`): past accuracy at 1, 3 and 5, and
 * past what a budget holds, so that a file ranked well and left out for room still has its rank.
 */
export const RANKED_DEPTH = 100;

/**
 * The pool's contents in the order relevance puts them, best first (a content's likeliest form;
 * ties by identity), the MANDATORY ones left out (no ranking decides them): the ranking a strategy
 * that reads relevance publishes, so that its file accuracy is measured as `bm25`'s is.
 */
export function relevanceRanking(candidates: readonly ContextCandidate[]): string[] {
  const best = new Map<string, number>();
  for (const c of candidates) {
    if (c.requirement === 'MANDATORY') continue;
    const seen = best.get(c.content_identity);
    if (seen === undefined || c.relevance > seen) best.set(c.content_identity, c.relevance);
  }
  return [...best]
    .sort(([a, x], [b, y]) => y - x || (a < b ? -1 : a > b ? 1 : 0))
    .slice(0, RANKED_DEPTH)
    .map(([id]) => id);
}

/** An answer with the relevance ranking it was made from as `extras.ranked`. */
export function withRanking(input: StrategyInput, answer: Selection): Selection;
export function withRanking(
  input: StrategyInput,
  answer: Selection | Promise<Selection>,
): Selection | Promise<Selection>;
export function withRanking(
  input: StrategyInput,
  answer: Selection | Promise<Selection>,
): Selection | Promise<Selection> {
  const add = (s: Selection): Selection => ({
    ...s,
    extras: { ...s.extras, ranked: relevanceRanking(input.candidates) },
  });
  return answer instanceof Promise ? answer.then(add) : add(answer);
}

/**
 * Walk the list and keep each item whose addition still renders within the budget; skip the
 * rest and go on (no early stop), so "top-k" has no fixed k.
 */
export function greedyFill(ordered: readonly ContextCandidate[], input: StrategyInput): ContextCandidate[] {
  const selected: ContextCandidate[] = [];
  let cost = costOf([], input);
  for (const c of ordered) {
    const next = cost + renderedIncrement(c, selected.length, input.policy);
    if (next > input.budget) continue;
    selected.push(c);
    cost = next;
  }
  return selected;
}

/**
 * A baseline's answer: its selection, or, when even that overruns the budget (only an empty
 * bundle under a budget smaller than the bundle frame can), the failure the study specifies.
 * Under `layout: 'own'` the bundle keeps the order of `kept`, and so does its trace.
 */
export function baselineAnswer(
  input: StrategyInput,
  pool: readonly ContextCandidate[],
  kept: readonly ContextCandidate[],
  tag: string,
  why?: ReadonlyMap<string, Why>,
  layout: 'policy' | 'own' = 'policy',
): Selection {
  const cost = costOf(kept, input);
  if (cost <= input.budget) {
    const admitted = kept.map((c) => c.candidate_id);
    const trace = baselineTrace(input, pool, kept, tag, why, layout);
    return layout === 'own' ? { admitted, layout, trace } : { admitted, trace };
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

/**
 * topk's selection: the default forms by relevance, each that still fits. Its own strategy, and
 * the retrieval langchain-reorder lays out in LangChain's order: written once for both.
 */
export function relevanceFill(input: StrategyInput): {
  readonly pool: ContextCandidate[];
  readonly kept: ContextCandidate[];
} {
  const pool = defaultFormPool(input.candidates);
  return {
    pool,
    kept: greedyFill(
      rankBy(pool, (c) => c.relevance),
      input,
    ),
  };
}
