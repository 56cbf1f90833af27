/** The compiler's own input checks, run on every input before any strategy sees it. */
import {
  type CompilerPolicy,
  type ContextCandidate,
  type ContextRequest,
  checkCompilerInputs,
  RecordError,
} from '../../compiler/index.js';
import { InputError } from './errors.js';

/** Where each input came from, so a thrown input error can name the right file. */
export interface InputFiles {
  readonly request: string;
  readonly candidates: string;
  readonly policy: string;
}

/**
 * The compiler's input checks, located: a policy mismatch belongs to the request (the policy file
 * named as well), an unsupported
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

export function located<T>(files: InputFiles, run: () => T): T {
  try {
    return run();
  } catch (e) {
    if (!(e instanceof RecordError)) throw e;
    if (e.field === 'policy_version') {
      // Two files disagree; the request is where the version is asked for, the policy is named too.
      const other = files.policy === files.request ? '' : ` (policy file ${files.policy})`;
      throw new InputError(files.request, `${e.message}${other}`, 'request');
    }
    if (e.field === 'mandatory_form') throw new InputError(files.policy, e.message, 'policy');
    throw new InputError(files.candidates, e.message, 'candidates');
  }
}
