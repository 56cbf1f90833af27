/**
 * The forgeries of issue 19, as single mutants of real compilations: every strategy on every
 * reference case at every budget, written as `compile` prints them, each edited once the way a
 * file would be edited and then checked the way `validate` checks a file. `forgeryFigures` counts
 * them by class for docs/reliability.md.
 */
import seedrandom from 'seedrandom';
import { isPlainObject, SCHEMA } from '../../src/compiler/index.js';
import type { CheckInputs } from '../../src/harness/audit/compilation.js';
// The check without the wait for the exact engine: the mutants here are of answers made already.
import { validateDocument } from '../../src/harness/audit/document.js';
import { problemText } from '../../src/harness/audit/index.js';
import { caseInputs, loadStrategies, strategyInput } from '../../src/harness/hosts/index.js';
import { legalityProblems, selectionTrace } from '../../src/harness/kit/index.js';
import { compilationJSON } from '../../src/harness/session/compile-one.js';
import { compileAwaited } from '../../src/harness/session/index.js';
import { BUDGETS } from '../../src/harness/vocabulary.js';
import { nullPaths, PLANTED, someOf, withoutField } from './break-it.js';
import { corpus, referenceLedger } from './corpus.js';

// biome-ignore lint/suspicious/noExplicitAny: a forgery edits raw JSON, as a file would be edited.
type Json = any;

/** A compilation `validate` takes as valid, its inputs, and who made it. */
export interface Base {
  readonly strategy: string;
  readonly where: string;
  readonly doc: Json;
  readonly inputs: CheckInputs;
}

/** One class of forgery; `make` returns null when it does not apply to a base. */
interface Forgery {
  readonly name: string;
  readonly make: (doc: Json, base: Base, pick: (n: number) => number) => Json | null;
}

const COMPILERS = new Set(['compiler', 'compiler-strict', 'compiler-v2']);

/**
 * Whether a compilation carries the compiler's own trace: a compiler's does, unless compiler-v2's
 * certification returned the solver's bundle in place of its planner's (the harness's trace then).
 */
export const compilerTraced = (strategy: string, doc: object): boolean => {
  const planner = (doc as { readonly extras?: { readonly planner?: unknown } }).extras?.planner;
  return COMPILERS.has(strategy) && planner !== 'improved' && planner !== 'refused';
};
const entries = (d: Json): Json[] => d.result.trace.entries;

/** An edit of one entry chosen among those `which` allows. */
const onEntry =
  (which: (e: Json, d: Json, base: Base) => boolean, edit: (e: Json, d: Json) => void) =>
  (doc: Json, base: Base, pick: (n: number) => number) => {
    const d = structuredClone(doc);
    const e = someOf(
      entries(d).filter((x) => which(x, d, base)),
      pick,
    );
    if (e === null) return null;
    edit(e, d);
    return d;
  };

/** A success turned into a refusal; the forger re-seals every field it knows of. */
function asRefusal(doc: Json, base: Base, trace: 'kept' | 'rewritten'): Json | null {
  if (doc.bundle === null) return null;
  const d = structuredClone(doc);
  const { request, policy } = base.inputs;
  Object.assign(d, { bundle: null, rendered_text: null, real_tokens: null });
  Object.assign(d.result, { success: false, bundle_id: null, bundle_tokens: null, bundle_hash: null });
  d.result.failure = {
    schema_version: SCHEMA.failure,
    request_id: request.request_id,
    policy_version: policy.policy_version,
    reason: 'INSUFFICIENT_BUDGET',
    blocking_ids: [],
    budget_used: 0,
    budget_total: request.usable_token_budget,
    diagnostic: 'the budget is too small',
  };
  if (trace === 'kept') for (const e of entries(d)) e.position = null;
  else {
    const input = { ...base.inputs, budget: request.usable_token_budget };
    d.result.trace.entries = JSON.parse(JSON.stringify(selectionTrace(input, [], base.strategy)));
  }
  return d;
}

/** An edit of a compiler's refusal record. */
const onFailure = (edit: (f: Json, d: Json, base: Base) => void) => (doc: Json, base: Base) => {
  if (doc.bundle !== null || !compilerTraced(base.strategy, doc)) return null;
  const d = structuredClone(doc);
  edit(d.result.failure, d, base);
  return d;
};

const kitLegal = (doc: Json, base: Base) =>
  doc.bundle !== null &&
  legalityProblems(
    { ...base.inputs, budget: base.inputs.request.usable_token_budget },
    doc.bundle.items.map((i: Json) => i.id),
  ).length === 0;

const ADMITTED = (e: Json) => e.decision === 'ADMITTED';

/** An edit of the extras of a compilation that carries the compiler's own result (and so its extras). */
const onCompilerExtras =
  (edit: (d: Json, pick: (n: number) => number) => unknown) =>
  (doc: Json, base: Base, pick: (n: number) => number) => {
    if (!compilerTraced(base.strategy, doc)) return null;
    const d = structuredClone(doc);
    return edit(d, pick) === false ? null : d;
  };

/** The classes of issue 19, in its order, then those of issue 33. */
export const FORGERIES: readonly Forgery[] = [
  { name: 'success rewritten as INSUFFICIENT_BUDGET, trace kept', make: (d, b) => asRefusal(d, b, 'kept') },
  {
    // Rewritten whole, the forgery reads as a strategy's own refusal: what refutes it is a legal
    // bundle that fits. Where the base's bundle is not legal by the kit's rules (a named id or
    // required content missing), no legal bundle may fit, and the refusal is true of the inputs.
    name: 'success rewritten as INSUFFICIENT_BUDGET, trace rewritten',
    make: (d, b) => (kitLegal(d, b) ? asRefusal(d, b, 'rewritten') : null),
  },
  {
    name: 'refusal reason changed',
    make: onFailure((f) => {
      f.reason = f.reason === 'INSUFFICIENT_BUDGET' ? 'REQUIRED_INELIGIBLE' : 'INSUFFICIENT_BUDGET';
    }),
  },
  {
    name: 'refusal blocking_ids changed',
    make: onFailure((f, _d, b) => {
      const other = b.inputs.candidates.find((c) => !f.blocking_ids.includes(c.candidate_id));
      f.blocking_ids = other ? [...f.blocking_ids, other.candidate_id].sort() : f.blocking_ids.slice(1);
    }),
  },
  {
    name: 'refusal diagnostic changed',
    make: onFailure((f) => {
      f.diagnostic += ' (edited)';
    }),
  },
  {
    name: 'refusal budget_used changed',
    make: onFailure((f) => {
      f.budget_used += 1;
    }),
  },
  {
    name: 'trace marginal_cost changed',
    make: onEntry(
      () => true,
      (e) => {
        e.marginal_cost += 1;
      },
    ),
  },
  {
    // A selection trace's reasons for leaving a candidate out are its strategy's own words.
    name: 'trace reason_detail changed',
    make: onEntry(
      (e, d, b) => compilerTraced(b.strategy, d) || (ADMITTED(e) && entries(d).filter(ADMITTED).length > 1),
      (e) => {
        e.reason_detail += ' (edited)';
      },
    ),
  },
  {
    name: 'trace entries reordered',
    make: (doc, _b, pick) => {
      if (entries(doc).length < 2) return null;
      const d = structuredClone(doc);
      const k = 1 + pick(entries(d).length - 1);
      const list = entries(d);
      [list[k - 1], list[k]] = [list[k], list[k - 1]];
      return d;
    },
  },
  {
    name: 'trace entry with an extra key',
    make: onEntry(
      () => true,
      (e) => {
        e.note = 'forged';
      },
    ),
  },
  {
    name: 'trace schema_version changed to v1',
    make: (doc) => {
      const d = structuredClone(doc);
      d.result.trace.schema_version = SCHEMA.traceV1;
      return d;
    },
  },
  {
    name: 'trace pulled_in_by changed',
    make: onEntry(ADMITTED, (e, d) => {
      const other = entries(d).find((x) => x.candidate_id !== e.candidate_id);
      e.pulled_in_by = e.pulled_in_by.length > 0 ? [] : [other?.candidate_id ?? 'ghost'];
    }),
  },
  {
    name: 'trace budget_after changed',
    make: onEntry(
      () => true,
      (e) => {
        e.budget_after += e.budget_after > 0 ? -1 : 1;
      },
    ),
  },
  {
    name: 'trace entry dropped',
    make: (doc, _b, pick) => {
      if (entries(doc).length === 0) return null;
      const d = structuredClone(doc);
      entries(d).splice(pick(entries(d).length), 1);
      return d;
    },
  },
  {
    name: 'extra field on an item',
    make: (doc, _b, pick) => {
      if (doc.bundle === null || doc.bundle.items.length === 0) return null;
      const d = structuredClone(doc);
      d.bundle.items[pick(d.bundle.items.length)].note = 'SYSTEM: forged';
      return d;
    },
  },
  {
    name: 'extra field at the top level',
    make: (doc) => ({ ...structuredClone(doc), note: 'forged' }),
  },
  {
    name: 'extra field on the bundle, result, failure or trace',
    make: (doc, _b, pick) => {
      const d = structuredClone(doc);
      const homes = [d.bundle, d.result, d.result.failure, d.result.trace].filter(isPlainObject);
      (homes[pick(homes.length)] as Json).note = 'forged';
      return d;
    },
  },
  // Issue 33.
  {
    name: 'a refusal given a bundle_hash',
    make: (doc) =>
      doc.bundle !== null
        ? null
        : { ...structuredClone(doc), result: { ...doc.result, bundle_hash: '0'.repeat(64) } },
  },
  {
    name: 'a refusal given bundle_tokens 5',
    make: (doc) =>
      doc.bundle !== null ? null : { ...structuredClone(doc), result: { ...doc.result, bundle_tokens: 5 } },
  },
  {
    // Any field written as null (the bundle, its text and real tokens, a refusal's hash and
    // cost, a success's failure, a left-out candidate's position), deleted; extras are apart.
    name: 'a null field deleted',
    make: (doc, _b, pick) => {
      const places = nullPaths(doc, ['extras']);
      return places.length === 0
        ? null
        : withoutField(doc, places[pick(places.length)] as (string | number)[]);
    },
  },
  {
    name: "extras added to a compiler's compilation",
    make: onCompilerExtras((d) => {
      d.extras = { ...d.extras, note: PLANTED.praise };
    }),
  },
  {
    name: "extras changed on a compiler's compilation",
    make: onCompilerExtras((d, pick) => {
      const keys = Object.keys(d.extras ?? {});
      if (keys.length === 0) return false;
      const key = keys[pick(keys.length)] as string;
      d.extras[key] =
        typeof d.extras[key] === 'string' ? PLANTED.praise : { was: d.extras[key], note: PLANTED.praise };
    }),
  },
  {
    name: "extras deleted from a compiler's compilation",
    make: onCompilerExtras((d) => {
      delete d.extras;
    }),
  },
];

/** What `validate` makes of a document: its problems, or the one line of a file it cannot read. */
export function validateDoc(doc: Json, inputs: CheckInputs): string[] {
  try {
    return validateDocument('compilation', doc, inputs).map(problemText);
  } catch (e) {
    return [`unreadable: ${(e as Error).message}`];
  }
}

/**
 * Every strategy's compilation of every reference case at every budget that `validate` takes; and
 * those it does not take for a rule other than `legal` and `budget` (what a strategy chose, never
 * how it was written down), which an honest compilation never breaks.
 */
export async function bases(): Promise<{ bases: Base[]; broken: string[] }> {
  const ledger = referenceLedger();
  const out: Base[] = [];
  const broken: string[] = [];
  for (const strategy of await loadStrategies()) {
    for (const k of corpus().cases) {
      for (const b of BUDGETS) {
        const inputs = caseInputs(k, b, corpus().policy, ledger.get(k.name));
        const c = await compileAwaited(strategy, strategyInput(strategy, inputs));
        if (c.outcome === 'error') throw new Error(`${strategy.name} on ${k.name}/${b}: ${c.message}`);
        const json = await compilationJSON(
          c.outcome === 'bundle' ? c.bundle : null,
          c.record,
          inputs,
          c.extras,
          c.outcome === 'bundle' ? c.layout : undefined,
        );
        const doc = JSON.parse(JSON.stringify(json));
        const problems = validateDoc(doc, inputs);
        if (problems.length === 0)
          out.push({ strategy: strategy.name, where: `${k.name}/${b}`, doc, inputs });
        for (const p of problems.filter((x) => !/^(legal|budget): /.test(x)))
          broken.push(`${strategy.name} ${k.name}/${b}: ${p}`);
      }
    }
  }
  return { bases: out, broken };
}

export interface ClassFigure {
  readonly mutants: number;
  readonly rejected: number;
  /** A mutant `validate` took as valid, to say which. */
  readonly escaped: readonly string[];
}

export interface ForgeryFigures {
  readonly seed: string;
  readonly bases: number;
  /** Problems of honest compilations beyond `legal` and `budget`: none, or a check is wrong. */
  readonly broken: readonly string[];
  readonly refusals: number;
  readonly classes: Readonly<Record<string, ClassFigure>>;
}

/**
 * Each class applied to up to `perClass` bases (all of them when it is Infinity), chosen with
 * the seeded generator; every mutant checked as `validate` checks a file.
 */
export async function forgeryFigures(seed: string, perClass: number): Promise<ForgeryFigures> {
  const { bases: all, broken } = await bases();
  const rng = seedrandom(seed);
  const pick = (n: number) => Math.floor(rng() * n);
  const classes: Record<string, ClassFigure> = {};
  for (const f of FORGERIES) {
    const escaped: string[] = [];
    let mutants = 0;
    const order = [...all];
    for (let k = order.length - 1; k > 0; k--) {
      const j = pick(k + 1);
      [order[k], order[j]] = [order[j] as Base, order[k] as Base];
    }
    for (const base of order) {
      if (mutants >= perClass) break;
      const doc = f.make(base.doc, base, pick);
      if (doc === null) continue;
      mutants++;
      if (validateDoc(doc, base.inputs).length === 0) escaped.push(`${base.strategy} ${base.where}`);
    }
    classes[f.name] = { mutants, rejected: mutants - escaped.length, escaped };
  }
  return {
    seed,
    bases: all.length,
    broken,
    refusals: all.filter((b) => b.doc.bundle === null).length,
    classes,
  };
}
