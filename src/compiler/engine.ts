import { internalCheck, layOutAndRepair, type Placed } from './finish.js';
import { requiredGroupOf } from './gates.js';
import { greedyStageFast } from './greedy.js';
import { Pool } from './pool.js';
import { RecordError, sortedUnique } from './read.js';
import { buildBundle, hashBundle } from './render.js';
import { SCHEMA } from './schemas.js';
import {
  checkNamedCandidates,
  checkRequiredSources,
  finalCloseOut,
  greedyStageReference,
  hardGatePass,
  mandatoryCloseOut,
  mandatoryStage,
  type Refusal,
  requiredStage,
} from './stages.js';
import { CompileState } from './state.js';
import type {
  CompileOutput,
  CompilerPolicy,
  ContextCandidate,
  ContextRequest,
  DecisionTrace,
} from './types.js';

/**
 * Malformed input is thrown before any decision is made (spec/compiler.md section 4); every
 * problem of the first check is collected into one message, in the reference's order.
 */
export function validateInputs(candidates: readonly ContextCandidate[]): void {
  const problems: string[] = [];
  const seen = new Set<string>();
  for (const c of candidates) {
    if (seen.has(c.candidate_id)) problems.push(`duplicate candidate_id: ${c.candidate_id}`);
    seen.add(c.candidate_id);
    if (c.token_count < 0) problems.push(`negative token_count: ${c.candidate_id}`);
  }
  for (const c of candidates) {
    for (const dep of c.depends_on) {
      if (!seen.has(dep)) problems.push(`unknown dependency ${JSON.stringify(dep)} from ${c.candidate_id}`);
    }
  }
  const bands = new Map<string, Set<string>>();
  for (const c of candidates) {
    const g = requiredGroupOf(c);
    if (g === null) continue;
    bands.set(g, (bands.get(g) ?? new Set()).add(c.requirement));
  }
  for (const [g, declared] of bands) {
    if (declared.size > 1)
      problems.push(`required group ${g} spans bands: ${[...declared].sort().join(',')}`);
  }
  if (problems.length > 0) throw new RecordError(`invalid compiler inputs: ${problems.join('; ')}`);
}

/** Every check that throws, in the order `compileContext` runs them, without compiling. */
export function checkCompilerInputs(
  request: ContextRequest,
  candidates: readonly ContextCandidate[],
  policy: CompilerPolicy,
): void {
  validateInputs(candidates);
  checkPolicy(request, policy);
}

function checkPolicy(request: ContextRequest, policy: CompilerPolicy): void {
  if (request.policy_version !== policy.policy_version) {
    throw new RecordError(
      `request policy ${JSON.stringify(request.policy_version)} != compiler policy ${JSON.stringify(policy.policy_version)}`,
      'policy_version',
    );
  }
  if (policy.mandatory_form !== 'cheapest') {
    throw new RecordError(
      `unsupported mandatory_form: ${JSON.stringify(policy.mandatory_form)}`,
      'mandatory_form',
    );
  }
}

function traceOf(s: CompileState): DecisionTrace {
  return {
    schema_version: SCHEMA.traceV2,
    request_id: s.pool.request.request_id,
    policy_version: s.pool.policy.policy_version,
    // The pool is sorted by id already: no sort, no copies (the state is not used again).
    entries: s.pool.facts.flatMap((f) => f.entry ?? []),
  };
}

function refused(s: CompileState, r: Refusal): CompileOutput {
  const { request, policy } = s.pool;
  return {
    bundle: null,
    result: {
      schema_version: SCHEMA.resultV2,
      request_id: request.request_id,
      policy_version: policy.policy_version,
      success: false,
      bundle_id: null,
      bundle_tokens: null,
      bundle_hash: null,
      trace: traceOf(s),
      failure: {
        schema_version: SCHEMA.failure,
        request_id: request.request_id,
        policy_version: policy.policy_version,
        reason: r.reason,
        blocking_ids: sortedUnique(r.blocking),
        budget_used: s.used,
        budget_total: request.usable_token_budget,
        diagnostic: r.diagnostic,
      },
    },
  };
}

function succeeded(s: CompileState, placed: Placed): CompileOutput {
  const { request, policy } = s.pool;
  const bundle = buildBundle(placed.live, request);
  placed.live.forEach((c, position) => {
    const entry = s.entries.get(c.candidate_id);
    if (entry) entry.position = position;
  });
  return {
    bundle,
    result: {
      schema_version: SCHEMA.resultV2,
      request_id: request.request_id,
      policy_version: policy.policy_version,
      success: true,
      bundle_id: bundle.id,
      bundle_tokens: placed.cost,
      bundle_hash: hashBundle(bundle),
      trace: traceOf(s),
      failure: null,
    },
  };
}

export interface CompileOptions {
  /**
   * `fast` (the default) or `reference`: the spec-literal engine that rescans every unit each
   * round (quadratic), kept as the oracle the fast one is tested against. Same bytes out.
   */
  readonly engine?: 'fast' | 'reference' | undefined;
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
  const s = new CompileState(new Pool(candidates, request, policy));
  const early = checkRequiredSources(s);
  if (early) return refused(s, early);
  hardGatePass(s);
  const refusal = (s.pool.strict ? checkNamedCandidates(s) : null) ?? mandatoryStage(s) ?? requiredStage(s);
  if (refusal) return refused(s, refusal);
  mandatoryCloseOut(s);
  const fast = options.engine !== 'reference';
  const greedy = fast ? greedyStageFast : greedyStageReference;
  greedy(s, 'PREFERRED');
  greedy(s, 'DISCRETIONARY');
  finalCloseOut(s);
  const placed = layOutAndRepair(s, fast);
  if ('reason' in placed) return refused(s, placed);
  const problem = internalCheck(s, placed);
  if (problem) return refused(s, problem);
  return succeeded(s, placed);
}
