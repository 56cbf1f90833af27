/**
 * The rules of the harness's own files (docs/formats.md): the budget manifest, a truth file of
 * the ledger, and a line of `compile --batch`. Every problem is collected, not the first.
 */
import { isPlainObject, quote } from '../../compiler/index.js';
import { BUDGETS, EVAL_CLASSES } from '../vocabulary.js';
import type { Findings } from './lint.js';
import {
  type At,
  has,
  invalid,
  missing,
  object,
  requiredString,
  SAFE_COUNT,
  schemaKey,
  unknownKeys,
  warn,
  word,
} from './lint-fields.js';

type Json = Readonly<Record<string, unknown>>;

/** `{"tight", "medium", "roomy"}`, the keys of a case's entry. */
const LEVEL_KEYS = `{${BUDGETS.map((b) => `"${b}"`).join(', ')}}`;
const OUTCOME = '{"success": true or false, "reason": a refusal reason or null}';

/**
 * A budget manifest: three budgets and the expected outcome of every case. `cases`, when known,
 * are the corpus's: each needs budgets and expectations, and nothing else may be named. Other
 * top-level keys are the corpus's own notes and are not read.
 */
export function lintManifest(raw: unknown, out: Findings, cases?: readonly string[]): void {
  if (!isPlainObject(raw)) {
    out.error(
      undefined,
      undefined,
      `invalid manifest: ${quote(raw)} (need an object with "budgets" and "expected")`,
    );
    return;
  }
  const top: At = { out, record: undefined };
  // The other top-level keys are the corpus's notes: only `$schema` is checked among them.
  schemaKey(raw, top);
  const budgets = object(raw, 'budgets', top, `{"<case>": ${LEVEL_KEYS}}`);
  const named = cases ?? (budgets === undefined ? [] : Object.keys(budgets));
  const known = new Set(named);
  if (budgets !== undefined) {
    for (const [name, b] of Object.entries(budgets)) {
      const at: At = { out, record: name, prefix: 'budgets.' };
      if (!known.has(name)) out.error(name, undefined, 'budgets name an unknown case');
      else if (!isPlainObject(b))
        invalid('', b, `${LEVEL_KEYS}, each an integer >= 0`, { ...at, prefix: 'budgets' });
      else levels(b, at, (key) => tokens(b, key, at));
    }
    for (const name of named) if (!has(budgets, name)) out.error(name, 'budgets', 'no budgets for this case');
  }
  if (has(raw, 'purpose')) purposes(raw, top, known);
  const expected = has(raw, 'expected') ? object(raw, 'expected', top, `{"<case>": ${LEVEL_KEYS}}`) : {};
  if (expected === undefined) return;
  for (const name of named) {
    const at: At = { out, record: name, prefix: 'expected.' };
    // Without it the case would be scored as expecting a bundle at every budget.
    if (!has(expected, name)) {
      out.error(name, 'expected', `missing expected (need its outcome at each of ${LEVEL_KEYS}: ${OUTCOME})`);
      continue;
    }
    const e = expected[name];
    if (!isPlainObject(e)) invalid('', e, `${LEVEL_KEYS}, each ${OUTCOME}`, { ...at, prefix: 'expected' });
    else levels(e, at, (key) => outcome(e, key, at));
  }
  for (const name of Object.keys(expected))
    if (!known.has(name)) warn(name, { out, record: name, prefix: 'expected.' }, 'no such case; ignored');
}

/** What each case is for (`ctxbench findings` quotes it): text, for cases the folder has. */
function purposes(raw: Json, top: At, known: ReadonlySet<string>): void {
  const p = object(raw, 'purpose', top, '{"<case>": "what the case is for"}');
  if (p === undefined) return;
  for (const [name, text] of Object.entries(p)) {
    const at: At = { out: top.out, record: name, prefix: 'purpose.' };
    if (typeof text !== 'string') invalid('', text, 'text', { ...at, prefix: 'purpose' });
    else if (!known.has(name)) warn(name, at, 'no such case; ignored');
  }
}

/** Each of the three budget levels, and a warning for any other key. */
function levels(o: Json, at: At, each: (key: string) => void): void {
  for (const level of BUDGETS) each(level);
  unknownKeys(o, new Set(BUDGETS), at);
}

function tokens(o: Json, key: string, at: At): void {
  const n = o[key];
  if (!has(o, key)) missing(key, at, 'an integer >= 0');
  else if (typeof n !== 'number' || !Number.isInteger(n) || n < 0) invalid(key, n, 'an integer >= 0', at);
  else if (!Number.isSafeInteger(n)) invalid(key, n, SAFE_COUNT, at);
}

function outcome(o: Json, key: string, at: At): void {
  const x = object(o, key, at, OUTCOME);
  if (x === undefined) return;
  const inner: At = { ...at, prefix: `${at.prefix ?? ''}${key}.` };
  if (!has(x, 'success')) missing('success', inner, 'true or false');
  else if (typeof x.success !== 'boolean') invalid('success', x.success, 'true or false', inner);
  if (has(x, 'reason') && x.reason !== null && typeof x.reason !== 'string')
    invalid('reason', x.reason, 'a refusal reason or null', inner);
  unknownKeys(x, new Set(['success', 'reason']), inner);
}

/**
 * A truth file: each content identity's class and minimum sufficient form, and optionally the
 * case's expected outcome (not read: the manifest's counts). `identities`, when known, are the
 * case's: the ledger may name no other. `where` names the record holding it (a batch line's
 * `ledger`), when it is not a file of its own.
 */
export function lintTruth(
  raw: unknown,
  out: Findings,
  identities?: ReadonlySet<string>,
  where?: string,
): void {
  if (!isPlainObject(raw)) {
    out.error(where, undefined, `invalid truth file: ${quote(raw)} (need {"identity_truth": {...}})`);
    return;
  }
  const top: At = { out, record: where };
  const table = object(
    raw,
    'identity_truth',
    top,
    '{"<content_identity>": {"eval_class", "min_representation"}}',
  );
  for (const [identity, t] of Object.entries(table ?? {})) {
    const at: At = { out, record: where === undefined ? identity : `${where} ${quote(identity)}` };
    if (identities !== undefined && !identities.has(identity))
      out.error(at.record, undefined, 'no candidate has this content identity');
    if (!isPlainObject(t)) {
      out.error(
        at.record,
        undefined,
        `invalid entry: ${quote(t)} (need {"eval_class", "min_representation"})`,
      );
      continue;
    }
    word(t, 'eval_class', EVAL_CLASSES, at, true);
    requiredString(t, 'min_representation', at);
    unknownKeys(t, new Set(['eval_class', 'min_representation']), at);
  }
  // The reader takes anything here (the expected outcome of a case is the manifest's): warn only.
  const e = raw.expected;
  if (e !== undefined && e !== null && !isPlainObject(e))
    warn('expected', top, `${quote(e)} is not an object; ignored`);
  if (isPlainObject(e)) {
    const at: At = { ...top, prefix: 'expected.' };
    if (has(e, 'success') && typeof e.success !== 'boolean')
      warn('success', at, `${quote(e.success)} is not true or false; read as ${e.success !== false}`);
    if (has(e, 'reason') && e.reason !== null && typeof e.reason !== 'string')
      warn('reason', at, `${quote(e.reason)} is not a string; read as null`);
    unknownKeys(e, new Set(['success', 'reason']), at);
  }
  notInPool(raw, top, identities);
  unknownKeys(raw, new Set(['$schema', 'expected', 'identity_truth', 'must_not_in_pool']), top);
}

/**
 * `must_not_in_pool`: needed files no form of which the pool can hold (a file the fix creates, a
 * binary one), each with the reason, which the scorer counts as missed. A file the pool does hold
 * belongs in `identity_truth` instead.
 */
function notInPool(raw: Json, top: At, identities: ReadonlySet<string> | undefined): void {
  if (!has(raw, 'must_not_in_pool')) return;
  const table = object(raw, 'must_not_in_pool', top, '{"<path>": "why no form of it is in the pool"}');
  for (const [identity, why] of Object.entries(table ?? {})) {
    const at: At = { out: top.out, record: top.record, prefix: 'must_not_in_pool.' };
    if (typeof why !== 'string' || why === '') invalid(identity, why, 'the reason, a non-empty string', at);
    if (identities?.has(identity))
      top.out.error(
        top.record,
        'must_not_in_pool',
        `${quote(identity)} is in the pool: list it in identity_truth`,
      );
  }
}

/** The keys of a batch line: the three inputs (required) and a ledger (optional). */
const BATCH_KEYS: ReadonlySet<string> = new Set(['request', 'candidates', 'policy', 'ledger']);

/** A batch line's shape; its records are checked by their own rules. */
export function lintBatchShape(o: Json, out: Findings): void {
  const at: At = { out, record: undefined };
  for (const key of ['request', 'candidates', 'policy'])
    if (!has(o, key)) missing(key, at, key === 'candidates' ? 'a list of candidates' : `a ${key} object`);
  unknownKeys(o, BATCH_KEYS, at);
}
