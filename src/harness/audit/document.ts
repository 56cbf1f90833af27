/**
 * A stored compilation as a whole document: `compile`'s output, or a Python golden file. Every
 * top-level field is one of its shape's, and every field that repeats what another says, or what
 * the checks find, says the same; nothing is silently dropped (docs/compiler.md §16.3).
 */
import {
  type ContextBundle,
  type ContextCandidate,
  isPlainObject,
  readBundle,
  readResult,
} from '../../compiler/index.js';
import { locate, realTokens } from '../corpus/index.js';
import { InputError } from '../errors.js';
import type { ValidationRule } from '../types.js';
import {
  type CheckInputs,
  checkCompilation,
  type Problem,
  problemText,
  type StoredCompilation,
} from './compilation.js';
import { differences } from './expected.js';
import { derivedExtras, derivedExtrasAwaited, extrasVerdict } from './extras.js';

/** What `compile` prints (src/harness/session/compile-one.ts). */
const COMPILED = ['bundle', 'result', 'rendered_text', 'validation', 'real_tokens', 'extras', 'layout'];

/**
 * The fields each shape writes as null for a refusal, and for a bundle, with the rule that
 * names one deleted: a reader would take it as null, so only the document can tell it is gone.
 */
const NULL_WHEN: Readonly<
  Record<'compiled' | 'golden', Record<'refusal' | 'bundle', readonly [string, ValidationRule][]>>
> = {
  compiled: {
    refusal: [
      ['bundle', 'result'],
      ['rendered_text', 'rendered'],
      ['real_tokens', 'rendered'],
    ],
    bundle: [],
  },
  golden: {
    refusal: [
      ['bundle', 'result'],
      ['rendered_text', 'rendered'],
      ['bundle_hash', 'hash'],
      ['bundle_tokens', 'tokens'],
    ],
    bundle: [['failure', 'result']],
  },
};

/** A golden of the Python reference (test/fixtures/golden), told apart by its `fixture`. */
const GOLDEN = [
  'admitted_candidate_ids',
  'admitted_representation_ids',
  'budget',
  'bundle',
  'bundle_hash',
  'bundle_order',
  'bundle_tokens',
  'failure',
  'fixture',
  'policy',
  'rendered_text',
  'request',
  'result',
  'success',
  'trace',
];

/**
 * Every problem of a stored compilation (`compile`'s output, a golden) against its inputs, already
 * checked: the rules of `checkCompilation`, then the document's own. Empty when it is legal. A
 * document that is not a compilation at all stops with an InputError naming `file` and the field.
 */
export function validateDocument(file: string, doc: unknown, inputs: CheckInputs): Problem[] {
  if (!isPlainObject(doc)) throw new InputError(file, 'not a JSON object');
  const result = locate(file, 'result', () => readResult(doc.result, { anyReason: true }));
  const bundle: ContextBundle | null =
    doc.bundle === undefined || doc.bundle === null
      ? null
      : locate(file, 'bundle', () => readBundle(doc.bundle));
  // The records as read, so that no reader's leniency hides an unknown or coerced field.
  const stored: StoredCompilation = {
    bundle,
    result,
    rendered_text: doc.rendered_text ?? null,
    raw: { bundle: doc.bundle ?? null, result: doc.result },
    layout: layoutOf(file, doc.layout, bundle),
  };
  const found = checkCompilation(stored, inputs);
  return [...found, ...checkDocument(doc, stored, inputs, found)];
}

/**
 * `validateDocument` once every answer whose extras the document's result may carry is made,
 * however long that takes (the exact engine loaded, the integer program solved): so its extras
 * are derived wherever the inputs decide them, not only where that needs no waiting.
 */
export async function validateDocumentAwaited(
  file: string,
  doc: unknown,
  inputs: CheckInputs,
): Promise<Problem[]> {
  if (isPlainObject(doc)) await derivedExtrasAwaited(inputs, doc.result);
  return validateDocument(file, doc, inputs);
}

/**
 * A compilation's `layout`, as `compile` writes it: absent, or `"own"` beside a bundle (the
 * strategy laid it out in its own order, so `order` is its word and not checked).
 */
function layoutOf(file: string, layout: unknown, bundle: ContextBundle | null): 'own' | undefined {
  if (layout === undefined) return undefined;
  if (layout !== 'own')
    throw new InputError(
      file,
      `layout must be "own" when present, not ${String(JSON.stringify(layout)).slice(0, 40)}`,
      'layout',
    );
  if (bundle === null)
    throw new InputError(file, 'layout "own" needs a bundle: a refusal is not laid out', 'layout');
  return layout;
}

/**
 * The document's own problems, given those `checkCompilation` found in it: unknown top-level
 * fields (rule `result`), and restated facts that differ from what they restate.
 */
function checkDocument(
  doc: Readonly<Record<string, unknown>>,
  stored: StoredCompilation,
  inputs: CheckInputs,
  found: readonly Problem[],
): Problem[] {
  const problems: Problem[] = [];
  const golden = Object.hasOwn(doc, 'fixture');
  const known = new Set(golden ? GOLDEN : COMPILED);
  for (const key of Object.keys(doc))
    if (!known.has(key))
      problems.push({
        rule: 'result',
        text: `${key} is an unknown field of a compilation${golden ? ' golden' : ''}`,
      });
  const nulls = NULL_WHEN[golden ? 'golden' : 'compiled'][stored.bundle === null ? 'refusal' : 'bundle'];
  for (const [key, rule] of nulls)
    if (!Object.hasOwn(doc, key))
      problems.push({ rule, text: `${key} is missing: the compilation writes it as null` });
  const restated = golden ? goldenFacts(doc, stored, inputs) : compiledFacts(doc, stored, found);
  for (const [key, { rule, want }] of Object.entries(restated)) {
    if (!Object.hasOwn(doc, key)) continue;
    const d = differences(doc[key], want, key, [])[0];
    if (d !== undefined)
      problems.push({ rule, text: `${d.at} ${d.text}: it restates what the compilation gives` });
  }
  if (!golden && Object.hasOwn(doc, 'extras') && !isPlainObject(doc.extras))
    problems.push({ rule: 'result', text: 'extras is not an object' });
  if (!golden) problems.push(...extrasProblems(doc, stored, inputs));
  return problems;
}

/**
 * The extras of a compilation that is the answer of a strategy whose extras its inputs decide
 * (extras.ts): derived, so they must be that answer's, present and equal, nothing added. Any other
 * strategy's extras are its own words.
 */
function extrasProblems(
  doc: Readonly<Record<string, unknown>>,
  stored: StoredCompilation,
  inputs: CheckInputs,
): Problem[] {
  const sets = derivedExtras(inputs, stored.raw?.result ?? doc.result);
  if (sets === null) return [];
  const { problem } = extrasVerdict(sets, Object.hasOwn(doc, 'extras') ? doc.extras : undefined);
  return problem === null ? [] : [{ rule: 'result', text: problem }];
}

type Facts = Record<string, { readonly rule: Problem['rule']; readonly want: unknown }>;

/** `compile`'s validation block and real token counts, as they are for this document. */
function compiledFacts(
  doc: Readonly<Record<string, unknown>>,
  stored: StoredCompilation,
  found: readonly Problem[],
): Facts {
  const text = doc.rendered_text;
  return {
    validation: { rule: 'result', want: { valid: found.length === 0, problems: found.map(problemText) } },
    real_tokens: {
      rule: 'rendered',
      want: typeof text === 'string' && stored.bundle !== null ? realTokens(text) : null,
    },
  };
}

/** A golden's copies of the result's fields and of the bundle's ids and forms. */
function goldenFacts(
  doc: Readonly<Record<string, unknown>>,
  stored: StoredCompilation,
  inputs: CheckInputs,
): Facts {
  const raw = isPlainObject(doc.result) ? doc.result : {};
  const ids = stored.bundle?.items.map((i) => i.id) ?? [];
  const known = new Map<string, ContextCandidate>(inputs.candidates.map((c) => [c.candidate_id, c]));
  return {
    success: { rule: 'result', want: raw.success },
    bundle_hash: { rule: 'hash', want: raw.bundle_hash },
    bundle_tokens: { rule: 'tokens', want: raw.bundle_tokens },
    failure: { rule: 'result', want: raw.failure },
    trace: { rule: 'trace', want: raw.trace },
    admitted_candidate_ids: { rule: 'item', want: ids },
    bundle_order: { rule: 'item', want: ids },
    admitted_representation_ids: {
      rule: 'item',
      want: stored.bundle === null ? [] : ids.map((id) => known.get(id)?.representation_id ?? null),
    },
  };
}
