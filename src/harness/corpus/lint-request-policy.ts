/**
 * The rules of the request and the policy as the harness reads them (docs/formats.md): the
 * compiler's readers' rules (docs/compiler.md §2.2, §2.3) in its own words and all at once, and
 * warnings for what they silently accept (a non-string read as the default, a repair nobody
 * spells, a threshold outside [0, 1], an unknown key).
 */
import {
  defaultPolicy,
  FRAMES,
  isPlainObject,
  MANDATORY_FORMS,
  notOneLine,
  OVERHEAD_TOKENIZERS,
  PRICINGS,
  quote,
  REQUIRED_MISSING_MODES,
  readRequest,
  requestToJSON,
  SCHEMA,
} from '../../compiler/index.js';
import {
  type At,
  invalid,
  looseNumber,
  optionalString,
  requiredNumber,
  requiredString,
  SAFE_COUNT,
  schemaVersion,
  stringList,
  unknownKeys,
  warn,
  word,
} from './lint-fields.js';

const INTEGER_TOKENS = 'an integer >= 0';
const UNIT = 'a number in [0, 1]';

/** The keys of a request (and `$schema`, for editors): any other is warned about. */
export const REQUEST_KEYS: ReadonlySet<string> = new Set([
  '$schema',
  ...Object.keys(
    requestToJSON(readRequest({ request_id: '', task_id: '', usable_token_budget: 0, created_at: '' })),
  ),
]);

export function lintRequest(raw: unknown, at: At): void {
  if (!isPlainObject(raw)) {
    at.out.error(at.record, undefined, `invalid request: ${quote(raw)} (need an object)`);
    return;
  }
  schemaVersion(raw, [SCHEMA.request], at);
  const id = requiredString(raw, 'request_id', at);
  const why = id === undefined ? null : notOneLine(id);
  if (why !== null) at.out.error(at.record, 'request_id', `invalid request_id: ${why}`);
  requiredString(raw, 'task_id', at);
  const budget = requiredNumber(raw, 'usable_token_budget', at, INTEGER_TOKENS);
  if (budget !== undefined && !(Number.isInteger(budget) && budget >= 0))
    invalid('usable_token_budget', budget, INTEGER_TOKENS, at);
  else if (budget !== undefined && !Number.isSafeInteger(budget))
    invalid('usable_token_budget', budget, SAFE_COUNT, at);
  requiredString(raw, 'created_at', at);
  optionalString(raw, 'active_scope', at);
  stringList(raw, 'required_ids', at);
  optionalString(raw, 'policy_version', at);
  unknownKeys(raw, REQUEST_KEYS, at);
}

const DEFAULTS = defaultPolicy();
/** `none` is the spelling docs/formats.md gives "never repair"; the reader takes any string so. */
const REPAIRS = [DEFAULTS.repair, 'none'] as const;
/**
 * The keys of a policy (and `$schema`, for editors): any other is warned about. The default
 * policy leaves `overhead_tokenizer` out (it is the estimate), so it is named here.
 */
export const POLICY_KEYS: ReadonlySet<string> = new Set([
  '$schema',
  'schema_version',
  ...Object.keys(DEFAULTS),
  'overhead_tokenizer',
]);

export function lintPolicy(raw: unknown, at: At): void {
  if (!isPlainObject(raw)) {
    at.out.error(at.record, undefined, `invalid policy: ${quote(raw)} (need an object)`);
    return;
  }
  schemaVersion(raw, [SCHEMA.policy], at);
  // The reader replaces a non-string here by the default, silently: say so.
  const defaulted = (key: 'policy_version' | 'mandatory_form' | 'repair') => {
    const v = raw[key];
    if (v !== undefined && v !== null && typeof v !== 'string')
      warn(key, at, `${quote(v)} is not a string; read as ${quote(DEFAULTS[key])}`);
    return typeof v === 'string';
  };
  defaulted('policy_version');
  const threshold = looseNumber(raw, 'min_discretionary_relevance', at, UNIT);
  if (threshold !== undefined && !(threshold >= 0 && threshold <= 1))
    warn('min_discretionary_relevance', at, `${threshold} is outside [0, 1], where relevance lies`);
  const form = defaulted('mandatory_form')
    ? word(raw, 'mandatory_form', MANDATORY_FORMS, at, true)
    : undefined;
  stringList(raw, 'order_roles', at);
  if (defaulted('repair') && !(REPAIRS as readonly unknown[]).includes(raw.repair))
    warn(
      'repair',
      at,
      `${quote(raw.repair)} is neither ${REPAIRS.map((r) => quote(r)).join(' nor ')}; read as never repair`,
    );
  const missingMode = word(raw, 'required_missing', REQUIRED_MISSING_MODES, at, false);
  word(raw, 'pricing', PRICINGS, at, false);
  word(raw, 'frame', FRAMES, at, false);
  word(raw, 'overhead_tokenizer', OVERHEAD_TOKENIZERS, at, false);
  // The reader's order: an unsupported mode is its own problem; an absent one is the default.
  const mode = raw.required_missing === undefined || raw.required_missing === null ? 'omit' : missingMode;
  if (form === 'planned' && mode !== undefined && mode !== 'refuse')
    at.out.error(
      at.record,
      'mandatory_form',
      'invalid mandatory_form: "planned" needs required_missing "refuse"',
    );
  unknownKeys(raw, POLICY_KEYS, at);
}
