/**
 * A stored compilation checked against its inputs by re-deriving everything it claims: the
 * bundle's items from the candidates, its order from the policy, its hash, its rendered cost and
 * text, the trace against the bundle, and the legality rules of the independent validators
 * (docs/compiler.md §16). Each problem names its rule. The inputs are assumed checked (`compile`'s
 * input checks run first); a compilation that cannot be read at all is an input error elsewhere.
 */
import {
  buildBundle,
  bundleToJSON,
  type CompilationResult,
  type CompilerPolicy,
  type ContextBundle,
  type ContextCandidate,
  type ContextRequest,
  hashBundle,
  isPlainObject,
  orderByRole,
  renderBundleText,
  renderedCost,
  resultToJSON,
  type TraceEntry,
  validateBundle,
  validateResult,
} from '../../compiler/index.js';
import type { ValidationRule } from '../types.js';
import {
  type CheckInputs,
  type Difference,
  differences,
  expectedResults,
  isCompilerRun,
} from './expected.js';
import { frameProblems } from './frame-check.js';

export interface Problem {
  readonly rule: ValidationRule;
  readonly text: string;
}

/** What `compile` prints, read back: the bundle and result as records, the text as found. */
export interface StoredCompilation {
  readonly bundle: ContextBundle | null;
  readonly result: CompilationResult;
  readonly rendered_text: unknown;
  /**
   * The bundle and result as they were read, before any reader dropped an unknown field or
   * coerced a value; without them, the records' own canonical JSON is compared.
   */
  readonly raw?: { readonly bundle: unknown; readonly result: unknown } | undefined;
  /**
   * `"own"` when the strategy laid the bundle out in its own order (`Admission.layout`): the
   * order is then its word, like its choice of candidates, and the `order` rule does not apply.
   */
  readonly layout?: 'own' | undefined;
}

export type { CheckInputs } from './expected.js';

/** A problem as one line: its rule, then what is wrong. */
export const problemText = (p: Problem): string => `${p.rule}: ${p.text}`;

/** Every problem of a compilation, rule by rule; empty when it is what its inputs give. */
export function checkCompilation(doc: StoredCompilation, inputs: CheckInputs): Problem[] {
  const problems: Problem[] = [];
  const say = (rule: ValidationRule) => (text: string) => problems.push({ rule, text });
  const { bundle, result } = doc;
  const { request, candidates, policy } = inputs;
  for (const text of validateResult(result, request, candidates)) say('result')(text);
  resultAgainstInputs(result, bundle, inputs, say('result'));
  resultAgainstDerivation(doc, inputs, say);
  if (bundle !== null) unknownFields(doc.raw?.bundle, bundleToJSON(bundle), say('item'));
  const known = new Map(candidates.map((c) => [c.candidate_id, c]));
  traceAgainstBundle(result.trace.entries, bundle, known, request, say('trace'));
  nullsWritten(doc.raw?.result, say);
  if (bundle === null) {
    if (doc.rendered_text !== null) say('rendered')('a refusal has no rendered_text, but one is given');
    // A refusal has no bundle, so nothing of one: a hash or a cost would be a claim about nothing.
    if (result.bundle_hash !== null)
      say('hash')(`a refusal has no bundle_hash, but ${JSON.stringify(result.bundle_hash)} is given`);
    if (result.bundle_tokens !== null)
      say('tokens')(`a refusal has no bundle_tokens, but ${result.bundle_tokens} is given`);
    return problems;
  }
  for (const text of validateBundle(bundle, request, candidates, policy)) say('legal')(text);
  const live = itemsAgainstCandidates(bundle, known, { request, policy }, say('item'));
  const ordered = doc.layout === 'own' ? live : orderByRole(live, policy.order_roles);
  if (ordered.some((c, k) => c !== live[k]))
    say('order')(`items are not in the policy's order: ${ordered.map((c) => c.candidate_id).join(', ')}`);
  const hash = hashBundle(bundle);
  if (result.bundle_hash !== hash)
    say('hash')(`bundle_hash ${result.bundle_hash} is not the items' hash ${hash}`);
  const cost = renderedCost(live, request, policy);
  if (result.bundle_tokens !== cost)
    say('tokens')(`bundle_tokens ${result.bundle_tokens} is not the rendered cost ${cost}`);
  if (cost > request.usable_token_budget)
    say('budget')(`rendered cost ${cost} exceeds the budget ${request.usable_token_budget}`);
  const text = renderBundleText(bundle, policy.frame);
  if (doc.rendered_text !== text)
    say('rendered')(`rendered_text is not the ${policy.frame} rendering of the bundle`);
  for (const text of frameProblems(bundle, policy.frame)) say('frame')(text);
  return problems;
}

/**
 * The stored result against every result the harness could have written for the same inputs,
 * admitted set and outcome (audit/expected.ts): one must match field for field. Otherwise the nearest
 * one's first difference is named, once per rule. Hash, token total and positions have rules of
 * their own, checked against the bundle.
 */
function resultAgainstDerivation(
  doc: StoredCompilation,
  inputs: CheckInputs,
  say: (rule: ValidationRule) => (text: string) => void,
): void {
  // The compiler's own bundle, as the object its run returned, is that run's result field for
  // field: comparing it with itself would prove nothing. (A refusal still meets the witness test.)
  if (doc.raw === undefined && doc.result.success && isCompilerRun(inputs, doc.result)) return;
  const stored = doc.raw?.result ?? resultToJSON(doc.result);
  let nearest: { family: string; found: Difference[]; distance: number } | undefined;
  for (const e of expectedResults(doc.result, doc.bundle, inputs, doc.layout ?? 'policy')) {
    const found = differences(stored, e.json, '', []).filter((d) => !OWN_RULE.test(d.at));
    if (found.length === 0) {
      // Refusing when a legal bundle fits is what the strategy chose, as an illegal bundle is.
      const witness = e.witness?.();
      if (witness !== undefined)
        say('legal')(
          `the refusal ${doc.result.failure?.reason} says no legal bundle fits, but [${witness.join(', ')}] is legal and fits`,
        );
      return;
    }
    const distance = distanceOf(found);
    if (nearest === undefined || distance < nearest.distance) nearest = { family: e.family, found, distance };
  }
  if (nearest === undefined) return;
  const told = new Set<ValidationRule>();
  for (const d of nearest.found) {
    const rule: ValidationRule = d.at.startsWith('trace') ? 'trace' : 'result';
    if (told.has(rule)) continue;
    told.add(rule);
    say(rule)(`result.${d.at} ${d.text} (nearest: the result ${nearest.family} gives)`);
  }
}

/**
 * How far a stored result is from one written another way: another outcome first, then how
 * many fields and trace entries differ (an entry counts once, however many of its fields do).
 */
function distanceOf(found: readonly Difference[]): number {
  const places = new Set(found.map((d) => /^trace\.entries\[\d+\]/.exec(d.at)?.[0] ?? d.at));
  return (places.has('success') ? 1e9 : 0) + places.size;
}

/** Fields with rules of their own: the hash, the token total, and trace positions. */
const OWN_RULE = /^(bundle_hash|bundle_tokens|trace\.entries\[\d+\]\.position)$/;

/**
 * The fields of OWN_RULE, which the comparison with a derived result leaves to their rules, as
 * every writer writes them: present, null when there is nothing to say (a refusal's hash and
 * cost, the position of a candidate left out). A reader takes a missing one as null, so only the
 * result as read can tell that it was deleted.
 */
function nullsWritten(raw: unknown, say: (rule: ValidationRule) => (text: string) => void): void {
  if (!isPlainObject(raw)) return;
  if (!Object.hasOwn(raw, 'bundle_hash')) say('hash')('result.bundle_hash is missing');
  if (!Object.hasOwn(raw, 'bundle_tokens')) say('tokens')('result.bundle_tokens is missing');
  const entries = isPlainObject(raw.trace) && Array.isArray(raw.trace.entries) ? raw.trace.entries : [];
  entries.forEach((e: unknown, k) => {
    if (isPlainObject(e) && !Object.hasOwn(e, 'position'))
      say('trace')(`result.trace.entries[${k}].position is missing`);
  });
}

/** Fields of the bundle or an item the writer does not write, or leaves out (it writes all). */
function unknownFields(raw: unknown, written: unknown, say: (text: string) => void): void {
  if (raw === undefined) return;
  for (const d of differences(raw, written, 'bundle', []))
    if (d.text === 'is an unknown field' || d.text === 'is missing') say(`${d.at} ${d.text}`);
}

/** The result's own fields against the request, the policy and the bundle. */
function resultAgainstInputs(
  result: CompilationResult,
  bundle: ContextBundle | null,
  { request, policy }: CheckInputs,
  say: (text: string) => void,
): void {
  if (result.request_id !== request.request_id) say(`request_id ${result.request_id} is not the request's`);
  if (result.policy_version !== policy.policy_version)
    say(`policy_version ${result.policy_version} is not the policy's`);
  if (result.success !== (bundle !== null))
    say(result.success ? 'success without a bundle' : 'a refusal with a bundle');
  if (bundle !== null && result.bundle_id !== bundle.id)
    say(`bundle_id ${result.bundle_id} is not the bundle's id`);
  const f = result.failure;
  if (f !== null && f.budget_total !== request.usable_token_budget)
    say(`failure budget_total ${f.budget_total} is not the budget ${request.usable_token_budget}`);
  if (f !== null && f.request_id !== request.request_id) say("failure request_id is not the request's");
}

/**
 * Each item against the item the compiler builds from its candidate; the candidates in item
 * order, those the bundle names at most once.
 */
function itemsAgainstCandidates(
  bundle: ContextBundle,
  known: ReadonlyMap<string, ContextCandidate>,
  { request, policy }: { readonly request: ContextRequest; readonly policy: CompilerPolicy },
  say: (text: string) => void,
): ContextCandidate[] {
  const live: ContextCandidate[] = [];
  const seen = new Set<string>();
  for (const item of bundle.items) {
    const c = known.get(item.id);
    if (seen.has(item.id)) say(`${item.id} appears more than once`);
    else if (c !== undefined) live.push(c);
    seen.add(item.id);
  }
  const built = buildBundle(live, request, policy);
  for (const key of ['schema_version', 'id', 'created_at', 'evidence_class', 'provenance'] as const)
    if (JSON.stringify(bundle[key]) !== JSON.stringify(built[key]))
      say(`bundle ${key} is not what the request gives`);
  const want = new Map(built.items.map((i) => [i.id, i]));
  bundle.items.forEach((item, k) => {
    const expected = want.get(item.id);
    if (expected === undefined) return;
    if (item.position !== k) say(`${item.id} is at index ${k} but says position ${item.position}`);
    for (const [key, value] of Object.entries(item)) {
      if (key === 'position') continue;
      const from = (expected as unknown as Record<string, unknown>)[key];
      if (JSON.stringify(value) !== JSON.stringify(from)) say(`${item.id} ${key} is not its candidate's`);
    }
  });
  return live;
}

/**
 * Each entry against its candidate, with honest budgets; on success the admissions are the
 * bundle's items at their positions, on a refusal nothing has a position.
 */
function traceAgainstBundle(
  entries: readonly TraceEntry[],
  bundle: ContextBundle | null,
  known: ReadonlyMap<string, ContextCandidate>,
  request: ContextRequest,
  say: (text: string) => void,
): void {
  const position = new Map((bundle?.items ?? []).map((i, k) => [i.id, k]));
  const admitted = new Set<string>();
  for (const e of entries) {
    const c = known.get(e.candidate_id);
    if (c !== undefined) {
      if (e.content_identity !== c.content_identity || e.representation_id !== c.representation_id)
        say(`entry ${e.candidate_id} names another content or form than its candidate`);
      if (e.relevance !== c.relevance) say(`entry ${e.candidate_id} relevance is not its candidate's`);
    }
    if (e.budget_before > request.usable_token_budget) say(`entry ${e.candidate_id} starts above the budget`);
    if (e.decision !== 'ADMITTED') {
      if (e.position !== null) say(`${e.candidate_id} is not admitted but has position ${e.position}`);
      if (e.budget_after !== e.budget_before && e.reason_code !== 'repair-drop')
        say(`${e.candidate_id} was not admitted but its entry spends budget`);
      continue;
    }
    admitted.add(e.candidate_id);
    const at = position.get(e.candidate_id);
    if (bundle === null) {
      if (e.position !== null) say(`${e.candidate_id} has position ${e.position} in a refusal`);
    } else if (at === undefined) say(`${e.candidate_id} is ADMITTED in the trace but not in the bundle`);
    else if (e.position !== at)
      say(`${e.candidate_id} has trace position ${e.position} but bundle position ${at}`);
  }
  for (const id of position.keys())
    if (!admitted.has(id)) say(`${id} is in the bundle but its trace entry is not ADMITTED`);
  // Admissions spend the budget in steps that never overlap: a unit's members share one step.
  const steps = [
    ...new Set(
      entries.filter((e) => e.decision === 'ADMITTED').map((e) => `${e.budget_before} ${e.budget_after}`),
    ),
  ]
    .map((s) => s.split(' ').map(Number) as [number, number])
    .sort((a, b) => b[0] - a[0] || b[1] - a[1]);
  steps.forEach(([before, after], k) => {
    const next = steps[k + 1];
    if (after > before || (next !== undefined && next[0] > after))
      say(`admissions spend the budget in overlapping steps (${before} to ${after})`);
  });
}
