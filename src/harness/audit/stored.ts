/**
 * What `validate` says of a stored compilation (compile's output, a golden) and its three input
 * files, and how it says it: the CLI and the MCP server print the same lines.
 */
import type { CompilerPolicy } from '../../compiler/index.js';
import {
  checkInputs,
  type InputFiles,
  type Lint,
  loadCandidates,
  loadPolicy,
  loadRequest,
  readJsonFile,
} from '../corpus/index.js';
import { type Problem, problemText } from './compilation.js';
import { validateDocumentAwaited } from './document.js';

/**
 * Every problem of the compilation in `file` against its inputs, read from `files` and checked
 * first as `compile` checks them (an InputError for the first problem), the policy as `policy`
 * leaves it (a `--tokenizer`, say).
 */
export function validateStored(
  file: string,
  files: InputFiles,
  lint: Lint,
  policy: (p: CompilerPolicy) => CompilerPolicy,
): Promise<Problem[]> {
  const request = loadRequest(files.request, lint);
  // The candidates' annotations too, as `compile` gives them to a strategy (the tiered ones read them).
  const { candidates, annotations } = loadCandidates(files.candidates, { lint });
  const inputs = { request, candidates, annotations, policy: policy(loadPolicy(files.policy, lint)) };
  checkInputs(inputs.request, inputs.candidates, inputs.policy, files, lint);
  return validateDocumentAwaited(file, readJsonFile(file), inputs);
}

/** `valid`, or one `INVALID rule: problem` line per problem. */
export const validationText = (problems: readonly Problem[]): string =>
  problems.length === 0 ? 'valid\n' : problems.map((p) => `INVALID ${problemText(p)}\n`).join('');
