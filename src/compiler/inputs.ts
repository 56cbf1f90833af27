import type { CompilerPolicy, ContextCandidate, ContextRequest } from './compiler-types.js';
import { MANDATORY_FORMS, OVERHEAD_TOKENIZERS } from './compiler-vocabulary.js';
import { notOneLine } from './frame.js';
import { requiredGroupOf } from './groups.js';
import { quote, RecordError } from './json.js';

/**
 * Malformed input is thrown before any decision is made (docs/compiler.md §4); every
 * problem of the first check is collected into one message, in the reference's order.
 */
export function validateInputs(candidates: readonly ContextCandidate[]): void {
  const problems: string[] = [];
  const seen = new Set<string>();
  // Token counts are added up (and to the budget, a safe integer): the sum of the whole pool must
  // stay a number a double counts exactly, or the bundle's totals and validate would disagree.
  let total = 0;
  for (const c of candidates) {
    if (seen.has(c.candidate_id)) problems.push(`duplicate candidate_id: ${c.candidate_id}`);
    seen.add(c.candidate_id);
    if (c.token_count < 0) problems.push(`negative token_count: ${c.candidate_id}`);
    total += Math.abs(c.token_count);
  }
  if (total > Number.MAX_SAFE_INTEGER)
    problems.push(`token counts sum past 2^53 - 1 (${Number.MAX_SAFE_INTEGER}), beyond exact counting`);
  for (const c of candidates) {
    for (const dep of c.depends_on) {
      if (!seen.has(dep)) problems.push(`unknown dependency ${quote(dep)} from ${c.candidate_id}`);
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
  checkRequestId(request.request_id);
}

/**
 * The request id is rendered as the bundle id on the frame's `id:` line (§13, §17.6): a line break
 * there would start a line of the requester's choosing, a separator among them. Checked here, not
 * only by the reader, so that a library caller building its request in code is held to it too.
 */
export function checkRequestId(id: string): void {
  const why = notOneLine(id);
  if (why !== null) throw new RecordError(`invalid request_id: ${why}`, 'request_id');
}

function checkPolicy(request: ContextRequest, policy: CompilerPolicy): void {
  if (request.policy_version !== policy.policy_version) {
    throw new RecordError(
      `request policy ${quote(request.policy_version)} != compiler policy ${quote(policy.policy_version)}`,
      'policy_version',
    );
  }
  if (!(MANDATORY_FORMS as readonly string[]).includes(policy.mandatory_form)) {
    throw new RecordError(`unsupported mandatory_form: ${quote(policy.mandatory_form)}`, 'mandatory_form');
  }
  plannedNeedsRefuse(policy);
  const tokenizer = policy.overhead_tokenizer;
  if (tokenizer !== undefined && !(OVERHEAD_TOKENIZERS as readonly string[]).includes(tokenizer))
    throw new RecordError(`unsupported overhead_tokenizer: ${quote(tokenizer)}`, 'overhead_tokenizer');
}

/**
 * A plan meets every demand or refuses (docs/compiler.md §17.5): it has no way to leave REQUIRED
 * content out, so `planned` forms come with `required_missing: "refuse"`.
 */
export function plannedNeedsRefuse(
  policy: Pick<CompilerPolicy, 'mandatory_form' | 'required_missing'>,
): void {
  if (policy.mandatory_form === 'planned' && policy.required_missing !== 'refuse')
    throw new RecordError('mandatory_form "planned" needs required_missing "refuse"', 'mandatory_form');
}
