import {
  bundleToJSON,
  type CompilationResult,
  type CompilerPolicy,
  type ContextBundle,
  type ContextCandidate,
  type ContextRequest,
  checkCompilerInputs,
  compileContext,
  RecordError,
  renderBundleText,
  resultToJSON,
  validateBundle,
  validateResult,
} from '../compiler/index.js';
import { InputError } from './errors.js';
import type { Annotations } from './inputs.js';
import { type Compiled, compileWith } from './selection.js';
import type { CaseLedger, Strategy, StrategyInput } from './types.js';

/** Where each input came from, so a thrown input error can name the right file. */
export interface InputFiles {
  readonly request: string;
  readonly candidates: string;
  readonly policy: string;
}

/**
 * The compiler's input checks, located: a policy mismatch belongs to the request, an unsupported
 * form rule to the policy, everything else (duplicates, unknown dependencies, groups spanning
 * classes) to the candidates. Every strategy's input passes them, so a malformed pool is an
 * input error for all strategies alike, never a strategy error.
 */
export function checkInputs(
  request: ContextRequest,
  candidates: readonly ContextCandidate[],
  policy: CompilerPolicy,
  files: InputFiles,
): void {
  located(files, () => checkCompilerInputs(request, candidates, policy));
}

function located<T>(files: InputFiles, run: () => T): T {
  try {
    return run();
  } catch (e) {
    if (!(e instanceof RecordError)) throw e;
    if (e.field === 'policy_version') throw new InputError(files.request, e.message, 'request');
    if (e.field === 'mandatory_form') throw new InputError(files.policy, e.message, 'policy');
    throw new InputError(files.candidates, e.message, 'candidates');
  }
}

export interface Inputs {
  readonly request: ContextRequest;
  readonly candidates: readonly ContextCandidate[];
  readonly policy: CompilerPolicy;
  readonly ledger?: CaseLedger | undefined;
  readonly annotations?: Annotations | undefined;
}

/** The input a strategy sees: the ledger only when it declares that it reads it. */
export function strategyInput(strategy: Strategy, inputs: Inputs): StrategyInput {
  return {
    request: inputs.request,
    candidates: inputs.candidates,
    policy: inputs.policy,
    budget: inputs.request.usable_token_budget,
    annotations: inputs.annotations,
    ...(strategy.readsLedger === true ? { ledger: inputs.ledger } : {}),
  };
}

/** The `compile` command's output object: bundle, v2 result, rendered text and validation. */
export function compilationJSON(
  bundle: ContextBundle | null,
  result: CompilationResult,
  inputs: Inputs,
): {
  bundle: unknown;
  result: unknown;
  rendered_text: string | null;
  validation: { valid: boolean; problems: string[] };
} {
  const { request, candidates, policy } = inputs;
  const problems = [
    ...validateResult(result, request, candidates),
    ...(bundle ? validateBundle(bundle, request, candidates, policy) : []),
  ];
  return {
    bundle: bundle ? bundleToJSON(bundle) : null,
    result: resultToJSON(result),
    rendered_text: bundle ? renderBundleText(bundle) : null,
    validation: { valid: problems.length === 0, problems },
  };
}

/**
 * One compilation by a strategy, as the `compile` command prints it. The compiler's own result
 * is taken as the engine wrote it; any other strategy's selection goes through the harness,
 * which builds the result (an error row becomes `{error}`).
 */
export function compileOne(strategy: Strategy, inputs: Inputs, files: InputFiles) {
  if (strategy.name === 'compiler') {
    const out = located(files, () => compileContext(inputs.request, inputs.candidates, inputs.policy));
    return compilationJSON(out.bundle, out.result, inputs);
  }
  const compiled = compileWith(strategy, strategyInput(strategy, inputs));
  if (compiled.record === null) return { error: String(compiled.extras.error) };
  return compilationJSON(compiled.bundle, compiled.record, inputs);
}

export type { Compiled };
export { compileWith };
