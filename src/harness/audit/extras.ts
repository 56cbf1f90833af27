/**
 * The extras a compilation's inputs decide. The package's strategies built wholly from the kit
 * (the compiler in its three modes, compiler-v2's certification, `exact`'s solver, the tiered
 * compiler in its three modes) answer the same inputs the same way, extras included. So when a
 * stored result is, field for field, the result the harness writes for one of their answers, its
 * extras are that answer's: derived here, never taken as written. Any other strategy's extras
 * are its own words. `validate --compilation` (document.ts) and `validate <run-folder>`
 * (src/harness/study/remeasure.ts) both ask here.
 */
import { isPlainObject, resultToJSON } from '../../compiler/index.js';
import {
  certified,
  compileTiered,
  loadExact,
  MODES,
  selectionOf,
  TIERED_NAMES,
  withRanking,
} from '../kit/index.js';
import type { Selection } from '../types.js';
import {
  type CheckInputs,
  COMPILER_STRATEGIES,
  compilerOutput,
  differences,
  strategyInput,
  writtenResult,
} from './expected.js';

type Exact = Awaited<ReturnType<typeof loadExact>>;

/** The exact engine (HiGHS, WebAssembly), once an asynchronous check has loaded it. */
let exact: Exact | undefined;

interface Deriver {
  /** The strategy's name: the harness tags an answer that keeps no trace with it. */
  readonly name: string;
  /** Whether a stored result may be this answer, judged without making the answer. */
  readonly may: (result: unknown, inputs: CheckInputs) => boolean;
  /**
   * The answer for these inputs, a promise when it is known only asynchronously; undefined when
   * it needs the exact engine, not loaded, and `wait` does not allow loading it.
   */
  readonly answer: (inputs: CheckInputs, wait: boolean) => Selection | Promise<Selection> | undefined;
}

const V2 = 'compiler-v2';

const entriesOf = (result: unknown): Record<string, unknown>[] =>
  isPlainObject(result) && isPlainObject(result.trace) && Array.isArray(result.trace.entries)
    ? result.trace.entries.filter(isPlainObject)
    : [];

/** Whether a result may carry a trace of the kit's `selectionTrace`: one entry per candidate. */
const selectionShaped = (result: unknown, inputs: CheckInputs): boolean =>
  entriesOf(result).length === inputs.candidates.length;

/**
 * Whether a result may carry the trace the harness writes around the answer of a strategy named
 * `name` that keeps none (`selectionTrace` without reasons): there, every entry admitted and
 * every one left out that passes the gates says `name`, so some entry does, unless every
 * candidate failed a gate.
 */
const tagged =
  (name: string) =>
  (result: unknown, inputs: CheckInputs): boolean => {
    const entries = entriesOf(result);
    return (
      selectionShaped(result, inputs) &&
      (entries.some((e) => e.reason_detail === name) || entries.every((e) => e.decision === 'REJECTED_HARD'))
    );
  };

const same = (a: unknown, b: unknown): boolean => differences(a, b, '', []).length === 0;

const DERIVERS: readonly Deriver[] = [
  // The compiler's own trace names no strategy, and compiling is cheap: always tried.
  ...COMPILER_STRATEGIES.filter((s) => s !== V2).map(
    (name): Deriver => ({
      name,
      may: () => true,
      answer: (inputs) => selectionOf(compilerOutput(inputs, name)),
    }),
  ),
  {
    // Its planner's answer stands (the compiler's trace) or gives way to the solver's (tagged).
    name: V2,
    may: (result, inputs) =>
      tagged(V2)(result, inputs) || same(result, resultToJSON(compilerOutput(inputs, V2).result)),
    answer: (inputs) => {
      const input = strategyInput(inputs);
      return withRanking(input, certified(input, compilerOutput(inputs, V2)));
    },
  },
  {
    name: 'exact',
    may: tagged('exact'),
    answer: (inputs, wait) => {
      if (exact !== undefined) return exact.solveExact(strategyInput(inputs));
      if (!wait) return undefined;
      return loadExact().then((engine) => {
        exact = engine;
        return engine.solveExact(strategyInput(inputs));
      });
    },
  },
  ...MODES.map(
    // Its trace gives its own reasons (a tier shed, the head over the budget), and it is cheap.
    (mode): Deriver => ({
      name: TIERED_NAMES[mode],
      may: selectionShaped,
      answer: (inputs) => compileTiered(strategyInput(inputs), mode),
    }),
  ),
];

/** An answer as the harness writes it: its result as JSON, and its extras. */
interface Made {
  readonly result: unknown;
  readonly extras: unknown;
}

// Each answer is made once for the same inputs: a run folder's cells of one case and budget share them.
const made = new WeakMap<CheckInputs, Map<string, Made | null | Promise<Made | null>>>();

const json = (x: unknown): unknown => JSON.parse(JSON.stringify(x));

/** The answer written; null when making it threw (the strategy would have failed: no compilation). */
function write(inputs: CheckInputs, name: string, answer: Selection): Made | null {
  try {
    return {
      result: json(resultToJSON(writtenResult(inputs, answer, name))),
      extras: json(answer.extras ?? {}),
    };
  } catch {
    return null;
  }
}

function madeBy(
  inputs: CheckInputs,
  d: Deriver,
  wait: boolean,
): Made | null | Promise<Made | null> | undefined {
  const memo = made.get(inputs) ?? new Map<string, Made | null | Promise<Made | null>>();
  made.set(inputs, memo);
  const had = memo.get(d.name);
  if (had !== undefined) return had;
  let answer: Selection | Promise<Selection> | undefined;
  try {
    answer = d.answer(inputs, wait);
  } catch {
    memo.set(d.name, null);
    return null;
  }
  if (answer === undefined) return undefined;
  // Once known, a waited-for answer is known without waiting too.
  const settle = (m: Made | null): Made | null => {
    memo.set(d.name, m);
    return m;
  };
  const m =
    answer instanceof Promise
      ? answer.then(
          (a) => settle(write(inputs, d.name, a)),
          () => settle(null),
        )
      : write(inputs, d.name, answer);
  memo.set(d.name, m);
  return m;
}

/** The extras a strategy's answer carries, when a compilation is that answer. */
export interface DerivedExtras {
  readonly strategy: string;
  readonly extras: unknown;
}

/**
 * The extras of every answer that `result` is, field for field (more than one when two
 * strategies answer alike); null when it is none of them, or when an answer it may be is known
 * only asynchronously (the integer program, the exact engine not loaded): then its extras are
 * taken as they stand.
 */
export function derivedExtras(inputs: CheckInputs, result: unknown): readonly DerivedExtras[] | null {
  const sets: DerivedExtras[] = [];
  for (const d of DERIVERS) {
    if (!d.may(result, inputs)) continue;
    const m = madeBy(inputs, d, false);
    if (m === undefined || m instanceof Promise) return null;
    if (m !== null && same(result, m.result)) sets.push({ strategy: d.name, extras: m.extras });
  }
  return sets.length === 0 ? null : sets;
}

/** `derivedExtras`, every answer made however long it takes (the run folder's check). */
export async function derivedExtrasAwaited(
  inputs: CheckInputs,
  result: unknown,
): Promise<readonly DerivedExtras[] | null> {
  const sets: DerivedExtras[] = [];
  for (const d of DERIVERS) {
    if (!d.may(result, inputs)) continue;
    const m = await madeBy(inputs, d, true);
    if (m !== null && m !== undefined && same(result, m.result))
      sets.push({ strategy: d.name, extras: m.extras });
  }
  return sets.length === 0 ? null : sets;
}

/**
 * Extras as written (undefined: not written) against those derived: the set they must be (the
 * one they equal, else the nearest, the set of `strategy` first when it is one), and why they
 * are not it, or null when they are.
 */
export function extrasVerdict(
  derived: readonly DerivedExtras[],
  written: unknown,
  strategy?: string,
): { readonly want: unknown; readonly problem: string | null } {
  const sets = [...derived].sort((a, b) => Number(b.strategy === strategy) - Number(a.strategy === strategy));
  const first = sets[0] as DerivedExtras;
  if (written === undefined)
    return { want: first.extras, problem: `extras is missing: ${first.strategy}'s compilation writes them` };
  const found = sets.map((s) => differences(written, s.extras, 'extras', []));
  const k = found.findIndex((f) => f.length === 0);
  if (k >= 0) return { want: sets[k]?.extras, problem: null };
  const j = found.reduce((best, f, i) => (f.length < (found[best]?.length ?? 0) ? i : best), 0);
  const d = found[j]?.[0];
  return {
    want: sets[j]?.extras,
    problem: `${d?.at} ${d?.text}: ${sets[j]?.strategy}'s extras are derived from its inputs, not a strategy's words`,
  };
}
