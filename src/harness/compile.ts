import {
  bundleToJSON,
  type CompileOutput,
  type CompilerPolicy,
  type ContextCandidate,
  type ContextRequest,
  compileContext,
  RecordError,
  renderBundleText,
  resultToJSON,
  validateBundle,
  validateResult,
} from '../compiler/index.js';
import { InputError } from './errors.js';

/** Where each input came from, so a thrown input error can name the right file. */
export interface InputFiles {
  readonly request: string;
  readonly candidates: string;
  readonly policy: string;
}

/**
 * The compiler's input errors, located: a policy mismatch belongs to the request, an unsupported
 * form rule to the policy, everything else (duplicates, unknown dependencies, groups spanning
 * classes) to the candidates.
 */
export function compileLocated(
  request: ContextRequest,
  candidates: readonly ContextCandidate[],
  policy: CompilerPolicy,
  files: InputFiles,
): CompileOutput {
  try {
    return compileContext(request, candidates, policy);
  } catch (e) {
    if (!(e instanceof RecordError)) throw e;
    if (e.field === 'policy_version') throw new InputError(files.request, e.message, 'request');
    if (e.field === 'mandatory_form') throw new InputError(files.policy, e.message, 'policy');
    throw new InputError(files.candidates, e.message, 'candidates');
  }
}

/** The `compile` command's output object: bundle, v2 result, rendered text and validation. */
export function compilationJSON(
  output: CompileOutput,
  request: ContextRequest,
  candidates: readonly ContextCandidate[],
  policy: CompilerPolicy,
) {
  const problems = [
    ...validateResult(output.result, request, candidates),
    ...(output.bundle ? validateBundle(output.bundle, request, candidates, policy) : []),
  ];
  return {
    bundle: output.bundle ? bundleToJSON(output.bundle) : null,
    result: resultToJSON(output.result),
    rendered_text: output.bundle ? renderBundleText(output.bundle) : null,
    validation: { valid: problems.length === 0, problems },
  };
}
