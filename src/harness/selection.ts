/**
 * One code path turns any strategy's selection into a compilation: the harness, not the
 * strategy, orders the admitted candidates, renders, prices and hashes them, so every strategy
 * is measured with the same ruler.
 */
import {
  buildBundle,
  byCandidateId,
  type CompilationResult,
  type ContextBundle,
  type ContextCandidate,
  type DecisionTrace,
  type FailureReason,
  hashBundle,
  orderByRole,
  readTraceEntry,
  renderBundleText,
  renderedCost,
  resultToJSON,
  SCHEMA,
  sortedUnique,
  type TraceEntry,
} from '../compiler/index.js';
import { selectionTrace } from './kit.js';
import { type Selection, STRATEGY_ERROR, type Strategy, type StrategyInput } from './types.js';

export interface Compiled {
  readonly success: boolean;
  /** Null for a bundle; the refusal code; or STRATEGY_ERROR. */
  readonly reason: string | null;
  /** Bundle order. */
  readonly admitted: readonly string[];
  readonly live: readonly ContextCandidate[];
  readonly bundle: ContextBundle | null;
  readonly renderedTokens: number;
  /**
   * A CompilationResult v2; null on an error row. A strategy's refusal reason may lie outside
   * the compiler's six (the validators never read it), hence the loose `reason`.
   */
  readonly record: CompilationResult | null;
  /** The record as JSON, as compilations.jsonl and `compile` write it. */
  readonly result: Record<string, unknown> | null;
  readonly renderedText: string | null;
  readonly extras: Readonly<Record<string, unknown>>;
}

class Malformed extends Error {}

const isPlainObject = (x: unknown): x is Record<string, unknown> =>
  typeof x === 'object' && x !== null && !Array.isArray(x);

function stringList(x: unknown, what: string): string[] {
  if (!Array.isArray(x) || !x.every((s) => typeof s === 'string'))
    throw new Malformed(`${what} is not a list of ids`);
  return x;
}

function traceOf(x: unknown): TraceEntry[] | undefined {
  if (x === undefined) return undefined;
  if (!Array.isArray(x)) throw new Malformed('trace is not a list of entries');
  try {
    return x.map(readTraceEntry);
  } catch (e) {
    throw new Malformed(`trace: ${(e as Error).message}`);
  }
}

function traceRecord(input: StrategyInput, entries: readonly TraceEntry[]): DecisionTrace {
  return {
    schema_version: SCHEMA.traceV2,
    request_id: input.request.request_id,
    policy_version: input.policy.policy_version,
    entries: [...entries].sort(byCandidateId),
  };
}

/** The compilation of a strategy that failed: an error row. */
export function errorRow(message: string): Compiled {
  return {
    success: false,
    reason: STRATEGY_ERROR,
    admitted: [],
    live: [],
    bundle: null,
    renderedTokens: 0,
    record: null,
    result: null,
    renderedText: null,
    extras: { error: message },
  };
}

/** Run one strategy on one input. A throw or a malformed selection becomes an error row. */
export function compileWith(strategy: Strategy, input: StrategyInput): Compiled {
  let selection: Selection;
  try {
    selection = strategy.assemble(input);
  } catch (e) {
    return errorRow(`${strategy.name} threw: ${e instanceof Error ? e.message : String(e)}`);
  }
  try {
    return fromSelection(strategy.name, input, selection);
  } catch (e) {
    if (e instanceof Malformed)
      return errorRow(`${strategy.name} returned a malformed selection: ${e.message}`);
    throw e;
  }
}

function fromSelection(tag: string, input: StrategyInput, selection: unknown): Compiled {
  if (!isPlainObject(selection)) throw new Malformed('not an object');
  if (!isPlainObject(selection.extras ?? {})) throw new Malformed('extras is not an object');
  // Extras are kept as the JSON they will be written as: a function, a class with `toJSON` or a
  // cycle then reads the same in every file and across worker threads, or fails here.
  let extras: Record<string, unknown>;
  try {
    extras = JSON.parse(JSON.stringify(selection.extras ?? {}));
  } catch (e) {
    throw new Malformed(`extras cannot be written as JSON (${(e as Error).message})`);
  }
  const trace = traceOf(selection.trace);
  const { request, policy } = input;
  const base = {
    schema_version: SCHEMA.resultV2,
    request_id: request.request_id,
    policy_version: policy.policy_version,
  };
  if ('refusal' in selection) {
    const r = selection.refusal;
    if (!isPlainObject(r) || typeof r.reason !== 'string' || r.reason === '')
      throw new Malformed('refusal without a reason');
    const blocking = r.blocking_ids === undefined ? [] : stringList(r.blocking_ids, 'blocking_ids');
    const record: CompilationResult = {
      ...base,
      success: false,
      bundle_id: null,
      bundle_tokens: null,
      bundle_hash: null,
      trace: traceRecord(input, trace ?? selectionTrace(input, [], tag)),
      failure: {
        schema_version: SCHEMA.failure,
        request_id: request.request_id,
        policy_version: policy.policy_version,
        reason: r.reason as FailureReason,
        blocking_ids: sortedUnique(blocking),
        budget_used: typeof r.budget_used === 'number' ? r.budget_used : 0,
        budget_total: input.budget,
        diagnostic: typeof r.diagnostic === 'string' ? r.diagnostic : '',
      },
    };
    return {
      success: false,
      reason: r.reason,
      admitted: [],
      live: [],
      bundle: null,
      renderedTokens: 0,
      record,
      result: resultToJSON(record),
      renderedText: null,
      extras,
    };
  }
  const ids = stringList(selection.admitted, 'admitted');
  const lookup = new Map(input.candidates.map((c) => [c.candidate_id, c]));
  const unknown = ids.filter((id) => !lookup.has(id));
  if (unknown.length > 0) throw new Malformed(`unknown ids ${unknown.join(', ')}`);
  if (new Set(ids).size !== ids.length) throw new Malformed('duplicate ids');
  const live = orderByRole(
    ids.map((id) => lookup.get(id) as ContextCandidate),
    policy.order_roles,
  );
  const bundle = buildBundle(live, request);
  const renderedTokens = renderedCost(live, request, policy);
  const record: CompilationResult = {
    ...base,
    success: true,
    bundle_id: bundle.id,
    bundle_tokens: renderedTokens,
    bundle_hash: hashBundle(bundle),
    trace: traceRecord(input, trace ?? selectionTrace(input, ids, tag)),
    failure: null,
  };
  return {
    success: true,
    reason: null,
    admitted: live.map((c) => c.candidate_id),
    live,
    bundle,
    renderedTokens,
    record,
    result: resultToJSON(record),
    renderedText: renderBundleText(bundle),
    extras,
  };
}
