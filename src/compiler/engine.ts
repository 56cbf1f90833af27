/**
 * The Context Compiler's pipeline, stage by stage (docs/compiler.md §1). `compileContext` is a
 * pure function of request, candidates and policy; a refusal is a result, and only malformed
 * input throws.
 *
 *  1. Input checks (§4): duplicates, negative counts, unknown dependencies, groups spanning
 *     classes, the policy version and form rule. Throws a RecordError.      inputs.ts
 *  2. Named sources (§10.1): an id in `required_ids` that is no candidate refuses at once,
 *     with an empty trace.                                                  stages/sources.ts
 *  3. Gate pass (§10.2): every candidate failing a hard gate is rejected; in refuse mode a
 *     named candidate that fails one refuses (§17.3).                       stages/gate-pass.ts
 *  4. MANDATORY (§10.3): each content in its cheapest fitting form, or refuse.
 *                                                                           stages/mandatory.ts
 *  5. REQUIRED (§10.4): required groups whole, then each content's cheapest fitting form, or
 *     refuse.                                                               stages/required.ts
 *     Under `mandatory_form: "planned"` (§17.5) one stage replaces 4 and 5: the forms of all
 *     required content planned together, moved to cheaper ones, admitted if they fit.
 *                                                                           stages/planned.ts
 *  6. MANDATORY close-out (§10.5): the unchosen forms of admitted contents.  stages/mandatory.ts
 *  7. Greedy (§10.6): PREFERRED, then DISCRETIONARY, by relevance, new coverage, cost and id,
 *     each unit priced with its dependency closure.                         stages/greedy/
 *  8. Final close-out (§10.7): every candidate still untraced.              stages/close-out.ts
 *  9. Layout and repair (§11): order by role, price the rendering, drop the last DISCRETIONARY
 *     item while it overruns, or refuse.                                    stages/repair/
 * 10. Final check (§11.5): the engine's own look at what it is about to ship.
 *                                                                           stages/final-check.ts
 * 11. Bundle, hash, positions, result (§13, §14).                           below
 *
 * Stages 7 and 9 have two implementations each, side by side in their folders: the reference's
 * algorithm as written, and a fast one that makes the same decisions without rescanning
 * (§18). `IMPLEMENTATIONS` below is the one place that decides which runs.
 */

import type {
  CompileOutput,
  CompilerPolicy,
  ContextCandidate,
  ContextRequest,
  Engine,
  GreedyClass,
} from './compiler-types.js';
import { GREEDY_CLASSES } from './compiler-vocabulary.js';
import { checkCompilerInputs } from './inputs.js';
import { Pool } from './pool.js';
import { buildBundle, hashBundle } from './render.js';
import { bundleResult, refusedResult } from './result.js';
import { finalCloseOut } from './stages/close-out.js';
import { internalCheck } from './stages/final-check.js';
import { checkNamedCandidates, hardGatePass } from './stages/gate-pass.js';
import { greedyFast } from './stages/greedy/greedy-fast.js';
import { greedyReference } from './stages/greedy/greedy-reference.js';
import { mandatoryCloseOut, mandatoryStage } from './stages/mandatory.js';
import { plannedStage } from './stages/planned.js';
import type { StageRefusal } from './stages/refusal.js';
import { layOutAndRepair, type Placed } from './stages/repair/layout.js';
import { repairFast } from './stages/repair/repair-fast.js';
import { repairReference } from './stages/repair/repair-reference.js';
import type { Repair } from './stages/repair/victims.js';
import { requiredStage } from './stages/required.js';
import { checkRequiredSources } from './stages/sources.js';
import { CompileState } from './state.js';
import { overheadCounter } from './tokens.js';
import { makeTrace } from './trace-entry.js';

type GreedyStage = (s: CompileState, band: GreedyClass) => void;

/** Which implementation of the greedy stage and the repair each engine runs. */
const IMPLEMENTATIONS: Readonly<Record<Engine, { readonly greedy: GreedyStage; readonly repair: Repair }>> = {
  fast: { greedy: greedyFast, repair: repairFast },
  reference: { greedy: greedyReference, repair: repairReference },
};

export interface CompileOptions {
  /**
   * `fast` (the default) or `reference`: the reference's algorithm as written, which rescans
   * every unit each round (quadratic), kept as the oracle the fast one is tested against. Same
   * bytes out (docs/compiler.md §18).
   */
  readonly engine?: Engine | undefined;
}

/**
 * The Context Compiler: a pure function of its three arguments (no clock, randomness, I/O or
 * environment). Returns a bundle with its trace, or a named refusal with the trace as it stood.
 * Throws a {@link RecordError} only for malformed input.
 */
export function compileContext(
  request: ContextRequest,
  candidates: readonly ContextCandidate[],
  policy: CompilerPolicy,
  options: CompileOptions = {},
): CompileOutput {
  checkCompilerInputs(request, candidates, policy);
  // Whether the policy's tokenizer is registered is a fact of this process, not of the inputs,
  // so the input checks leave it; it is asked before any decision, not halfway through one.
  overheadCounter(policy);
  const run = IMPLEMENTATIONS[options.engine ?? 'fast'];
  const s = new CompileState(new Pool(candidates, request, policy));
  const early = checkRequiredSources(s);
  if (early) return refused(s, early);
  hardGatePass(s);
  const planned = policy.mandatory_form === 'planned';
  const refusal =
    (s.pool.strict ? checkNamedCandidates(s) : null) ??
    (planned ? plannedStage(s) : (mandatoryStage(s) ?? requiredStage(s)));
  if (refusal) return refused(s, refusal);
  mandatoryCloseOut(s);
  for (const band of GREEDY_CLASSES) run.greedy(s, band);
  finalCloseOut(s);
  const placed = layOutAndRepair(s, run.repair);
  if ('reason' in placed) return refused(s, placed);
  const problem = internalCheck(s, placed);
  if (problem) return refused(s, problem);
  return succeeded(s, placed);
}

/** The pool is sorted by id already: the entries need no sort (the state is not used again). */
const traceOf = (s: CompileState) =>
  makeTrace(
    s.pool.request,
    s.pool.policy,
    s.pool.facts.flatMap((f) => f.entry ?? []),
  );

function refused(s: CompileState, r: StageRefusal): CompileOutput {
  const { request, policy } = s.pool;
  const facts = { reason: r.reason, blocking: r.blocking, budgetUsed: s.used, diagnostic: r.diagnostic };
  return { bundle: null, result: refusedResult(request, policy, traceOf(s), facts) };
}

function succeeded(s: CompileState, placed: Placed): CompileOutput {
  const { request, policy } = s.pool;
  const bundle = buildBundle(placed.live, request, policy);
  placed.live.forEach((c, position) => {
    const entry = s.entries.get(c.candidate_id);
    if (entry) entry.position = position;
  });
  return {
    bundle,
    result: bundleResult(request, policy, traceOf(s), bundle, placed.cost, hashBundle(bundle)),
  };
}
