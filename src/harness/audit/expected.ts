/**
 * The result a compilation should carry, re-derived from its inputs, its admitted set and its
 * claimed outcome with the functions that write results (docs/compiler.md §16.3): the compiler's
 * own pipeline, or the trace the harness writes around any other strategy's selection. The stored
 * result is compared with each, as parsed JSON, field by field; unknown fields are differences.
 */
import {
  buildBundle,
  bundleResult,
  byCandidateId,
  type CompilationResult,
  type CompileOutput,
  type CompilerPolicy,
  type ContextBundle,
  type ContextCandidate,
  type ContextRequest,
  compileContext,
  FAILURE_REASONS,
  type FailureReason,
  hashBundle,
  makeTrace,
  orderByRole,
  refusedResult,
  renderedCost,
  resultToJSON,
  resultToV1JSON,
  SCHEMA,
  type TraceEntry,
} from '../../compiler/index.js';
import { legalityProblems, selectionTrace, type Why } from '../kit/index.js';
import type { Annotations, Selection, StrategyInput } from '../types.js';

/** The inputs a compilation is checked against; `compile`'s input checks have passed them. */
export interface CheckInputs {
  readonly request: ContextRequest;
  readonly candidates: readonly ContextCandidate[];
  readonly policy: CompilerPolicy;
  /** Candidate keys the compiler does not read (the tiered strategies read them), when known. */
  readonly annotations?: Annotations | undefined;
}

/**
 * The three ways the package runs the compiler (strategies/compiler*.ts): the policy as given,
 * refuse mode, and compiler-v2's settings. A compiler compilation must be one of them exactly.
 */
const COMPILER_MODES: readonly {
  readonly name: string;
  readonly strategy: string;
  readonly over: Partial<CompilerPolicy>;
}[] = [
  { name: 'the compiler', strategy: 'compiler', over: {} },
  { name: 'compiler-strict', strategy: 'compiler-strict', over: { required_missing: 'refuse' } },
  {
    name: 'compiler-v2',
    strategy: 'compiler-v2',
    over: { pricing: 'rendered', mandatory_form: 'planned', required_missing: 'refuse' },
  },
];

interface Run {
  readonly name: string;
  readonly output: CompileOutput;
}

// One validation compiles its inputs at most three times; the mutation tests share inputs.
const runs = new WeakMap<CheckInputs, Run[]>();

/** The modes of COMPILER_MODES, each with its policy and the names of the modes it stands for. */
function modesOf(policy: CompilerPolicy): { name: string; policy: CompilerPolicy; names: string[] }[] {
  const modes: { name: string; policy: CompilerPolicy; names: string[] }[] = [];
  for (const { strategy, name, over } of COMPILER_MODES) {
    const p = { ...policy, ...over };
    const same = modes.find((m) => JSON.stringify(m.policy) === JSON.stringify(p));
    if (same === undefined) modes.push({ name, policy: p, names: [strategy] });
    else same.names.push(strategy);
  }
  return modes;
}

/** The run of one mode, made once when first asked for. */
function runOf(inputs: CheckInputs, mode: { readonly name: string; readonly policy: CompilerPolicy }): Run {
  const done = runs.get(inputs) ?? [];
  runs.set(inputs, done);
  let run = done.find((r) => r.name === mode.name);
  if (run === undefined) {
    run = { name: mode.name, output: compileContext(inputs.request, inputs.candidates, mode.policy) };
    done.push(run);
  }
  return run;
}

/** The compiler's outputs for these inputs, one per distinct mode, each made once when first asked for. */
export function* compilerRuns(inputs: CheckInputs): Generator<Run> {
  for (const mode of modesOf(inputs.policy)) yield runOf(inputs, mode);
}

/** The strategies that run the compiler, each in one of its modes. */
export const COMPILER_STRATEGIES: readonly string[] = COMPILER_MODES.map((m) => m.strategy);

/** The compiler's output for these inputs as `strategy` (one of COMPILER_STRATEGIES) runs it. */
export function compilerOutput(inputs: CheckInputs, strategy: string): CompileOutput {
  const mode = modesOf(inputs.policy).find((m) => m.names.includes(strategy));
  if (mode === undefined) throw new Error(`${strategy} does not run the compiler`);
  return runOf(inputs, mode).output;
}

/**
 * The compiler's output for these inputs under the policy as given, made by whoever ran the
 * engine (`compile`): kept as that mode's run, so that checking it does not compile again.
 */
export function rememberCompilerRun(inputs: CheckInputs, output: CompileOutput): void {
  const done = runs.get(inputs) ?? [];
  runs.set(inputs, done);
  const name = (COMPILER_MODES[0] as (typeof COMPILER_MODES)[number]).name;
  if (!done.some((r) => r.name === name)) done.push({ name, output });
}

/** Whether `result` is, as the very object, one of the compiler's runs for these inputs. */
export const isCompilerRun = (inputs: CheckInputs, result: CompilationResult): boolean =>
  (runs.get(inputs) ?? []).some((r) => r.output.result === result);

/** What a strategy given these inputs sees (a check's inputs never hold the ledger). */
export const strategyInput = (inputs: CheckInputs): StrategyInput => ({
  ...inputs,
  budget: inputs.request.usable_token_budget,
});

/**
 * The result the harness writes for a strategy that selected `live` (or refused) and explained
 * its choices as the stored trace does: the admitted entries' tag, each other entry's reason code
 * and detail, and the refusal's own facts are the strategy's word; every number, decision, order
 * and field around them is the harness's.
 */
function selectionResult(
  claim: CompilationResult,
  live: readonly ContextCandidate[],
  inputs: CheckInputs,
  layout: 'policy' | 'own',
): CompilationResult {
  const entries = claim.trace.entries;
  const tag = entries.find((e) => e.decision === 'ADMITTED')?.reason_detail ?? '';
  const why = new Map<string, Why>(
    entries
      .filter((e) => e.decision !== 'ADMITTED')
      .map((e) => [e.candidate_id, { code: e.reason_code, detail: e.reason_detail }]),
  );
  const ids = live.map((c) => c.candidate_id);
  const trace = selectionTrace(strategyInput(inputs), ids, tag, why, layout);
  if (claim.success) return resultOf(inputs, trace, { live, layout });
  const f = claim.failure;
  return resultOf(inputs, trace, {
    reason: f?.reason ?? 'INSUFFICIENT_BUDGET',
    blocking: f?.blocking_ids ?? [],
    budgetUsed: f?.budget_used ?? 0,
    diagnostic: f?.diagnostic ?? '',
  });
}

/**
 * The result the harness writes (src/harness/session/measure-answer.ts) for a selection a strategy named
 * `tag` returned: its own trace, or the selection trace tagged with its name; its refusal's words.
 */
export function writtenResult(inputs: CheckInputs, s: Selection, tag: string): CompilationResult {
  const input = strategyInput(inputs);
  if ('refusal' in s) {
    const r = s.refusal;
    return resultOf(inputs, s.trace ?? selectionTrace(input, [], tag), {
      // A strategy's reason may lie outside the compiler's six, as session/measure-answer.ts writes it.
      reason: r.reason as FailureReason,
      blocking: r.blocking_ids ?? [],
      budgetUsed: typeof r.budget_used === 'number' ? r.budget_used : 0,
      diagnostic: r.diagnostic ?? '',
    });
  }
  const layout = s.layout === 'own' ? 'own' : 'policy';
  const known = new Map(inputs.candidates.map((c) => [c.candidate_id, c]));
  const live = s.admitted.flatMap((id) => known.get(id) ?? []);
  return resultOf(inputs, s.trace ?? selectionTrace(input, s.admitted, tag, new Map(), layout), {
    live,
    layout,
  });
}

/** A result around a trace's entries (in any order): the bundle of `live` laid out, or a refusal. */
function resultOf(
  { request, policy }: CheckInputs,
  entries: readonly TraceEntry[],
  outcome:
    | { readonly live: readonly ContextCandidate[]; readonly layout: 'policy' | 'own' }
    | Parameters<typeof refusedResult>[3],
): CompilationResult {
  const trace = makeTrace(request, policy, [...entries].sort(byCandidateId));
  if (!('live' in outcome)) return refusedResult(request, policy, trace, outcome);
  const { live, layout } = outcome;
  const ordered = layout === 'own' ? live : orderByRole(live, policy.order_roles);
  const bundle = buildBundle(ordered, request, policy);
  return bundleResult(
    request,
    policy,
    trace,
    bundle,
    renderedCost(ordered, request, policy),
    hashBundle(bundle),
  );
}

/** One way the result could have been written, as JSON. */
export interface Expected {
  readonly family: string;
  readonly json: unknown;
  /** For a strategy's refusal naming one of the compiler's reasons: a legal bundle that fits. */
  readonly witness?: () => readonly string[] | undefined;
}

/**
 * Every result the harness could have written for this claim, cheapest first and made only when
 * asked for: the selection trace around the bundle's admitted set, laid out as `layout` says
 * (for a v2 result), then the compiler's, mode by mode (as the v1 projection when the stored
 * result is v1, as the goldens are).
 */
export function* expectedResults(
  claim: CompilationResult,
  bundle: ContextBundle | null,
  inputs: CheckInputs,
  layout: 'policy' | 'own' = 'policy',
): Generator<Expected> {
  const v1 = claim.schema_version === SCHEMA.resultV1;
  if (!v1) {
    const known = new Map(inputs.candidates.map((c) => [c.candidate_id, c]));
    const live = [...new Set((bundle?.items ?? []).map((i) => i.id))].flatMap((id) => known.get(id) ?? []);
    const json = resultToJSON(selectionResult(claim, claim.success ? live : [], inputs, layout));
    yield { family: "a strategy's selection", json, witness: () => witnessFor(claim, inputs) };
  }
  for (const r of compilerRuns(inputs))
    yield { family: r.name, json: v1 ? resultToV1JSON(r.output.result) : resultToJSON(r.output.result) };
}

const COMPILER_REASONS: ReadonlySet<string> = new Set(FAILURE_REASONS);

/**
 * A refusal under one of the compiler's six reasons says no legal bundle exists within the budget
 * (docs/compiler.md §12). Deciding that in general is a search; refuting it takes one legal bundle
 * that fits, and the compiler's own runs and the empty bundle are tried as such.
 */
function witnessFor(claim: CompilationResult, inputs: CheckInputs): readonly string[] | undefined {
  if (claim.success || !COMPILER_REASONS.has(claim.failure?.reason ?? '')) return undefined;
  const input = strategyInput(inputs);
  const tries = [
    [] as string[],
    ...[...compilerRuns(inputs)].flatMap((r) =>
      r.output.bundle ? [r.output.bundle.items.map((i) => i.id)] : [],
    ),
  ];
  return tries.find((ids) => legalityProblems(input, ids).length === 0);
}

/** Where two parsed JSON values differ, as paths (`trace.entries[2].marginal_cost`), all of them. */
export function differences(actual: unknown, expected: unknown, at: string, out: Difference[]): Difference[] {
  if (actual === expected) return out;
  if (Array.isArray(actual) && Array.isArray(expected)) {
    const n = Math.max(actual.length, expected.length);
    for (let k = 0; k < n; k++) {
      if (k >= actual.length) out.push({ at: `${at}[${k}]`, text: 'is missing' });
      else if (k >= expected.length) out.push({ at: `${at}[${k}]`, text: 'is one entry too many' });
      else differences(actual[k], expected[k], `${at}[${k}]`, out);
    }
    return out;
  }
  if (isObject(actual) && isObject(expected)) {
    for (const key of Object.keys(actual))
      if (!Object.hasOwn(expected, key)) out.push({ at: join(at, key), text: 'is an unknown field' });
    for (const [key, value] of Object.entries(expected)) {
      if (!Object.hasOwn(actual, key)) out.push({ at: join(at, key), text: 'is missing' });
      else differences(actual[key], value, join(at, key), out);
    }
    return out;
  }
  out.push({ at, text: `is ${JSON.stringify(actual)}, not ${JSON.stringify(expected)}` });
  return out;
}

export interface Difference {
  readonly at: string;
  readonly text: string;
}

const isObject = (x: unknown): x is Record<string, unknown> =>
  typeof x === 'object' && x !== null && !Array.isArray(x);
const join = (at: string, key: string) => (at === '' ? key : `${at}.${key}`);
