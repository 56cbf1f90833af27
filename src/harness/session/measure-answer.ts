/**
 * Where any strategy's selection is measured: one code path runs a strategy and turns what it
 * returns into a compilation. The harness, not the strategy, orders the admitted candidates
 * (by the policy's roles, or as admitted when the selection says `layout: "own"`), renders,
 * prices and hashes them, so every strategy is measured with the same ruler.
 */
import {
  buildBundle,
  bundleResult,
  byCandidateId,
  type ContextCandidate,
  type FailureReason,
  hashBundle,
  isPlainObject,
  makeTrace,
  orderByRole,
  readTraceEntry,
  refusedResult,
  renderBundleText,
  renderedCost,
  resultToJSON,
  type TraceEntry,
} from '../../compiler/index.js';
import {
  type Answer,
  assembleAwaited,
  assembleGuarded,
  cutMessage,
  cutText,
  Malformed,
  readSelection,
} from '../hosts/index.js';
import { selectionTrace } from '../kit/index.js';
import type {
  Compiled,
  CompiledBundle,
  CompiledError,
  CompiledRefusal,
  Strategy,
  StrategyInput,
  WaitingStrategy,
} from '../types.js';
import { STRATEGY_ERROR } from '../vocabulary.js';

function idList(x: unknown, what: string): string[] {
  if (!Array.isArray(x) || !x.every((s) => typeof s === 'string'))
    throw new Malformed(`${what} is not a list of ids`);
  return x;
}

/** The words of a trace entry, each cut as any text a strategy writes into a compilation. */
const cutEntry = (e: TraceEntry): TraceEntry => ({
  ...e,
  candidate_id: cutText(e.candidate_id),
  content_identity: cutText(e.content_identity),
  representation_id: cutText(e.representation_id),
  reason_code: cutText(e.reason_code),
  reason_detail: cutText(e.reason_detail),
  priority_band: cutText(e.priority_band),
  dependency_closure: e.dependency_closure.map(cutText),
  pulled_in_by: e.pulled_in_by.map(cutText),
});

function readSelectionTrace(x: unknown): TraceEntry[] | undefined {
  if (x === undefined) return undefined;
  if (!Array.isArray(x)) throw new Malformed('trace is not a list of entries');
  try {
    return x.map((e) => cutEntry(readTraceEntry(e)));
  } catch (e) {
    throw new Malformed(`trace: ${(e as Error).message}`);
  }
}

/** The compilation of a strategy that failed: an error row, its message one line and cut. */
export function errorCompiled(said: string): CompiledError {
  const message = cutMessage(said);
  return { outcome: 'error', message, extras: { error: message } };
}

/**
 * Run one strategy on one input in this process: the guard's freeze and copy, then the same
 * measuring as an answer from the strategy's own process.
 */
export const compileWith = (strategy: Strategy, input: StrategyInput): Compiled =>
  compileAnswer(strategy.name, input, assembleGuarded(strategy, input));

/** `compileWith` for any strategy, one whose library answers only asynchronously included. */
export const compileAwaited = async (strategy: WaitingStrategy, input: StrategyInput): Promise<Compiled> =>
  compileAnswer(strategy.name, input, await assembleAwaited(strategy, input));

/** Measure a strategy's answer. A failed or malformed answer becomes an error row. */
export function compileAnswer(name: string, input: StrategyInput, answer: Answer): Compiled {
  if (!answer.ok) return errorCompiled(answer.message);
  try {
    const { selection, extras, layout } = readSelection(answer.text);
    const trace = readSelectionTrace(selection.trace);
    if ('refusal' in selection) return refusalOf(name, input, selection.refusal, trace, extras);
    return bundleOf(name, input, idList(selection.admitted, 'admitted'), { trace, extras, layout });
  } catch (e) {
    if (e instanceof Malformed) return errorCompiled(`${name} returned a malformed selection: ${e.message}`);
    throw e;
  }
}

/** The v2 trace of a selection: the strategy's own, or one entry per candidate. */
const traceFor = (input: StrategyInput, entries: readonly TraceEntry[]) =>
  makeTrace(input.request, input.policy, [...entries].sort(byCandidateId));

function refusalOf(
  tag: string,
  input: StrategyInput,
  r: unknown,
  trace: readonly TraceEntry[] | undefined,
  extras: Record<string, unknown>,
): CompiledRefusal {
  if (!isPlainObject(r) || typeof r.reason !== 'string' || r.reason === '')
    throw new Malformed('refusal without a reason');
  if (r.reason === STRATEGY_ERROR)
    throw new Malformed(`the refusal reason ${STRATEGY_ERROR} is kept for error rows`);
  const blocking = r.blocking_ids === undefined ? [] : idList(r.blocking_ids, 'blocking_ids').map(cutText);
  // Its own words, cut as any text a strategy writes into a row.
  const reason = cutText(r.reason);
  const record = refusedResult(
    input.request,
    input.policy,
    traceFor(input, trace ?? selectionTrace(input, [], tag)),
    {
      // A strategy's reason may lie outside the compiler's six; the validators never read it.
      reason: reason as FailureReason,
      blocking,
      budgetUsed: typeof r.budget_used === 'number' ? r.budget_used : 0,
      diagnostic: typeof r.diagnostic === 'string' ? cutText(r.diagnostic) : '',
    },
  );
  return { outcome: 'refusal', reason, record, result: resultToJSON(record), extras };
}

/** What a bundle's selection says besides its ids. */
interface Said {
  readonly trace: readonly TraceEntry[] | undefined;
  readonly extras: Record<string, unknown>;
  readonly layout: 'policy' | 'own';
}

function bundleOf(
  tag: string,
  input: StrategyInput,
  ids: readonly string[],
  { trace, extras, layout }: Said,
): CompiledBundle {
  const lookup = new Map(input.candidates.map((c) => [c.candidate_id, c]));
  const unknown = ids.filter((id) => !lookup.has(id));
  if (unknown.length > 0) throw new Malformed(`unknown ids ${unknown.join(', ')}`);
  if (new Set(ids).size !== ids.length) throw new Malformed('duplicate ids');
  const { request, policy } = input;
  const chosen = ids.map((id) => lookup.get(id) as ContextCandidate);
  const live = layout === 'own' ? chosen : orderByRole(chosen, policy.order_roles);
  const bundle = buildBundle(live, request, policy);
  const renderedTokens = renderedCost(live, request, policy);
  const record = bundleResult(
    request,
    policy,
    traceFor(input, trace ?? selectionTrace(input, ids, tag, new Map(), layout)),
    bundle,
    renderedTokens,
    hashBundle(bundle),
  );
  return {
    outcome: 'bundle',
    admitted: live.map((c) => c.candidate_id),
    live,
    bundle,
    renderedTokens,
    record,
    result: resultToJSON(record),
    renderedText: renderBundleText(bundle, policy.frame),
    extras,
    ...(layout === 'own' ? { layout } : {}),
  };
}

/** What a row records of a compilation's outcome. */
export const rowOutcome = (out: Compiled) => ({
  success: out.outcome === 'bundle',
  reason: out.outcome === 'bundle' ? null : out.outcome === 'refusal' ? out.reason : STRATEGY_ERROR,
  admitted: out.outcome === 'bundle' ? out.admitted : [],
  renderedTokens: out.outcome === 'bundle' ? out.renderedTokens : 0,
  bundleHash: out.outcome === 'bundle' ? out.record.bundle_hash : null,
});
