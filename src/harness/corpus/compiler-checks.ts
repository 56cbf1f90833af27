/** The compiler's own input checks, run on every input before any strategy sees it. */
import {
  type CompilerPolicy,
  type ContextCandidate,
  type ContextRequest,
  checkCompilerInputs,
  isPlainObject,
  quote,
  RecordError,
} from '../../compiler/index.js';
import { InputError, recordName } from '../errors.js';
import { Findings, type Lint, settle } from './lint.js';

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
  lint?: Lint,
): void {
  located(files, () => checkCompilerInputs(request, candidates, policy));
  settle(orderRoles(candidates, policy, files.candidates), lint);
}

/** How many roles a message lists before it elides the rest: a policy may name any number. */
const ROLES_SHOWN = 8;

/**
 * Candidates whose `order_role` the policy does not list: the layout puts them last, after the
 * tools (docs/compiler.md §11.1), which is rarely what the author meant. A warning each.
 */
export function orderRoles(
  candidates: readonly (ContextCandidate | unknown)[],
  policy: Pick<CompilerPolicy, 'order_roles'>,
  file: string,
): Findings {
  const findings = new Findings(file);
  const roles = new Set(policy.order_roles);
  const listed =
    policy.order_roles.length <= ROLES_SHOWN
      ? policy.order_roles.join(', ')
      : `${policy.order_roles.slice(0, ROLES_SHOWN).join(', ')}, ...`;
  // Raw records too (`ctxbench check` reads on past other problems): a role that is no string
  // is the record's own problem, not the policy's.
  candidates.forEach((c, k) => {
    const role = isPlainObject(c) ? c.order_role : undefined;
    if (typeof role !== 'string' || roles.has(role)) return;
    findings.warning(
      recordName('candidates', k, c),
      'order_role',
      `${quote(role)} is not among the policy's order_roles (${listed}); laid out last`,
    );
  });
  return findings;
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
    if (e.field === 'request_id') throw new InputError(files.request, e.message, 'request');
    throw new InputError(files.candidates, e.message, 'candidates');
  }
}
