/**
 * A compilation's decision trace as people read it: the candidates that blocked a refusal first
 * (those the compile never reached included), then every other candidate in id order.
 */
import { type CompilationResult, type ContextCandidate, traceToJSON } from '../../compiler/index.js';
import { count } from '../format.js';
import { headersOf, kindsOf } from '../metrics/index.js';
import type { Align, Cell, Table } from './table.js';

export interface TraceView {
  readonly outcome: string;
  /** Candidate ids the refusal names, directly or through their content. */
  readonly blocking: readonly string[];
  /** Blocking candidates the compile stopped before reaching: they have no entry. */
  readonly notReached: readonly string[];
  readonly result: CompilationResult;
}

export function traceView(result: CompilationResult, candidates: readonly ContextCandidate[]): TraceView {
  const named = new Set(result.failure?.blocking_ids ?? []);
  const blocking = candidates
    .filter((c) => named.has(c.candidate_id) || named.has(c.content_identity))
    .map((c) => c.candidate_id)
    .sort();
  const traced = new Set(result.trace.entries.map((e) => e.candidate_id));
  const outcome = result.success
    ? `bundle of ${count(result.bundle_tokens ?? 0, 'token')}, hash ${result.bundle_hash}`
    : `refused ${result.failure?.reason}: ${result.failure?.diagnostic}`;
  return { outcome, blocking, notReached: blocking.filter((id) => !traced.has(id)), result };
}

/** The catalogue's trace columns: numbers to the right, text to the left. */
const KINDS = kindsOf('trace');
const ALIGN: readonly Align[] = KINDS.map((k) => (k === undefined ? 'left' : 'right'));

/** The table: `yes` marks a blocking candidate; one the compile never reached says so. */
export function traceTable(view: TraceView, candidates: readonly ContextCandidate[]): Table {
  const blocking = new Set(view.blocking);
  const mark = (id: string) => (blocking.has(id) ? 'yes' : '');
  const entries = [...view.result.trace.entries].sort(
    (a, b) => Number(blocking.has(b.candidate_id)) - Number(blocking.has(a.candidate_id)),
  );
  const lookup = new Map(candidates.map((c) => [c.candidate_id, c]));
  const unreached = view.notReached.map((id): Cell[] => {
    const c = lookup.get(id) as ContextCandidate;
    return [
      mark(id),
      id,
      null,
      'not-reached',
      'the compile refused before reaching it',
      c.requirement,
      c.relevance,
      c.token_count,
      null,
      null,
      c.depends_on.join(',') || null,
      null,
    ];
  });
  const rows = entries.map((e): Cell[] => [
    mark(e.candidate_id),
    e.candidate_id,
    e.decision,
    e.reason_code,
    e.reason_detail,
    e.priority_band,
    e.relevance,
    e.marginal_cost,
    e.budget_before,
    e.budget_after,
    e.dependency_closure.join(',') || null,
    e.position,
  ]);
  const firstOthers = rows.findIndex((r) => r[0] === '');
  const ordered =
    firstOthers < 0
      ? [...rows, ...unreached]
      : [...rows.slice(0, firstOthers), ...unreached, ...rows.slice(firstOthers)];
  return {
    headers: headersOf('trace'),
    rows: ordered,
    kinds: KINDS,
    align: ALIGN,
  };
}

/** The view as JSON: the outcome, the blocking and unreached candidates, the entries in the table's order. */
export function traceJSON(view: TraceView, meta: Readonly<Record<string, unknown>>) {
  const blocking = new Set(view.blocking);
  const trace = traceToJSON(view.result.trace);
  return {
    ...meta,
    outcome: view.result.success ? 'bundle' : 'refusal',
    bundle_tokens: view.result.bundle_tokens,
    bundle_hash: view.result.bundle_hash,
    failure: view.result.failure,
    blocking: view.blocking,
    not_reached: view.notReached,
    entries: [...trace.entries].sort(
      (a, b) => Number(blocking.has(b.candidate_id)) - Number(blocking.has(a.candidate_id)),
    ),
  };
}
