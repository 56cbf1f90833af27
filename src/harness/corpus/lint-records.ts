/**
 * The rules of a candidate and of a pool as the harness reads them (docs/formats.md):
 * every rule of the compiler's reader (docs/compiler.md §2.1), in its own words and
 * all at once, and the harness's own on top: ids not empty, corpus files with whole token counts
 * and relevance in [0, 1] and no evaluator keys, warnings for what the readers silently accept.
 */
import {
  candidateToJSON,
  isPlainObject,
  pyTruthy,
  quote,
  REQUIREMENT_CLASSES,
  readCandidate,
  SCHEMA,
} from '../../compiler/index.js';
import { recordName } from '../errors.js';
import { TIERS } from '../kit/index.js';
import type { Findings } from './lint.js';
import {
  type At,
  has,
  invalid,
  looseNumber,
  optionalString,
  requiredBoolean,
  requiredNumber,
  requiredString,
  SAFE_COUNT,
  schemaVersion,
  stringList,
  truthyFlag,
  unknownKeys,
  warn,
  word,
} from './lint-fields.js';

type Json = Readonly<Record<string, unknown>>;

/** The keys the compiler reads from a candidate; any other key is an annotation. */
export const CANDIDATE_KEYS: ReadonlySet<string> = new Set(
  Object.keys(
    candidateToJSON(
      readCandidate({
        candidate_id: '',
        content_identity: '',
        representation_id: '',
        form_rank: 0,
        min_rank: 0,
        source_kind: '',
        source_ref: '',
        kind: '',
        content: '',
        token_count: 0,
        requirement: REQUIREMENT_CLASSES[0],
        order_role: '',
        scope_eligible: true,
        freshness_eligible: true,
        authority_eligible: true,
      }),
    ),
  ),
);

/** Annotations a strategy reads (`tier`, for the tiered compiler): known, so never warned about. */
export const ANNOTATION_KEYS: ReadonlySet<string> = new Set(['tier']);

const CANDIDATE_KNOWN = new Set([...CANDIDATE_KEYS, ...ANNOTATION_KEYS]);

/** Evaluator keys: a ledger label riding inside a candidate would reach every strategy. */
const EVALUATOR_KEY = (k: string): boolean => k === 'eval_class' || k.startsWith('oracle_');

export interface CandidateRules {
  /**
   * Corpus files only: integer token counts, relevance in [0, 1], and no evaluator keys, so a
   * ledger label can never ride along inside a candidate and reach a strategy. Elsewhere the
   * first two are warnings.
   */
  readonly corpus?: boolean | undefined;
}

const INTEGER_TOKENS = 'an integer >= 0';
const UNIT = 'a number in [0, 1]';

/** Two key lists alike, in order. */
export const sameKeys = (a: readonly string[], b: readonly string[]): boolean =>
  a.length === b.length && a.every((k, i) => k === b[i]);

/** The records of a candidates document, `{"candidates": [...]}` or a bare list; not checked. */
export const candidateList = (raw: unknown): unknown =>
  Array.isArray(raw) ? raw : isPlainObject(raw) ? raw.candidates : undefined;

/**
 * One candidate record; returns it when it is an object, for the checks across records. `seen`
 * carries the last key list found clean from one record of a file to the next.
 */
export function lintCandidate(
  raw: unknown,
  at: At,
  rules: CandidateRules = {},
  seen?: { clean: readonly string[] },
): Json | undefined {
  if (!isPlainObject(raw)) {
    at.out.error(at.record, undefined, `invalid candidate: ${quote(raw)} (need an object)`);
    return undefined;
  }
  const o = raw;
  schemaVersion(o, [SCHEMA.candidate], at);
  requiredString(o, 'candidate_id', at, true);
  requiredString(o, 'content_identity', at, true);
  requiredString(o, 'representation_id', at);
  requiredNumber(o, 'form_rank', at);
  requiredNumber(o, 'min_rank', at);
  for (const key of ['source_kind', 'source_ref', 'kind', 'content']) requiredString(o, key, at);
  tokenCount(o, at, rules);
  optionalString(o, 'token_source', at);
  word(o, 'requirement', REQUIREMENT_CLASSES, at, true);
  requiredString(o, 'order_role', at);
  requiredBoolean(o, 'scope_eligible', at);
  optionalString(o, 'scope_reason', at);
  requiredBoolean(o, 'freshness_eligible', at);
  optionalString(o, 'freshness_reason', at);
  requiredBoolean(o, 'authority_eligible', at);
  optionalString(o, 'authority_reason', at);
  stringList(o, 'depends_on', at);
  optionalString(o, 'group_id', at);
  truthyFlag(o, 'group_required', at, pyTruthy);
  stringList(o, 'coverage_keys', at);
  relevance(o, at, rules);
  truthyFlag(o, 'is_default_form', at, pyTruthy);
  if (has(o, 'tier') && o.tier !== null && !(TIERS as readonly unknown[]).includes(o.tier))
    warn('tier', at, `${quote(o.tier)} is not a tier (${TIERS.join(', ')}); the tier is derived instead`);
  // Records of one file nearly always share their keys: a list seen clean is not looked at again.
  const keys = Object.keys(o);
  if (seen !== undefined && sameKeys(keys, seen.clean)) return o;
  const leak = keys.filter(EVALUATOR_KEY);
  if (rules.corpus && leak.length > 0)
    at.out.error(at.record, leak[0], `evaluator keys ${leak.sort().join(',')}`);
  if (keys.every((k) => CANDIDATE_KNOWN.has(k))) {
    if (seen !== undefined) seen.clean = keys;
  } else unknownKeys(o, CANDIDATE_KNOWN, at, rules.corpus ? EVALUATOR_KEY : undefined);
  return o;
}

function tokenCount(o: Json, at: At, rules: CandidateRules): void {
  const n = requiredNumber(o, 'token_count', at, INTEGER_TOKENS);
  if (n === undefined) return;
  if (n > Number.MAX_SAFE_INTEGER) invalid('token_count', n, SAFE_COUNT, at);
  else if (n < 0 || (rules.corpus && !Number.isInteger(n))) invalid('token_count', n, INTEGER_TOKENS, at);
  else if (!Number.isInteger(n)) warn('token_count', at, `${n} is not a whole number of tokens`);
}

function relevance(o: Json, at: At, rules: CandidateRules): void {
  const r = looseNumber(o, 'relevance', at, UNIT);
  if (r === undefined || (r >= 0 && r <= 1)) return;
  if (rules.corpus) invalid('relevance', o.relevance, UNIT, at);
  else warn('relevance', at, `${r} is outside [0, 1]`);
}

/**
 * A candidates document: `{"candidates": [...]}` or a bare list, each record checked, then what
 * only the whole list shows (the compiler's own input checks, docs/compiler.md §4, per record).
 */
export function lintCandidates(raw: unknown, out: Findings, rules: CandidateRules = {}, prefix = ''): void {
  const list = candidateList(raw);
  if (!Array.isArray(list)) {
    const what = isPlainObject(raw) && !has(raw, 'candidates') ? 'missing candidates' : 'invalid candidates';
    out.error(
      prefix || undefined,
      'candidates',
      `${what} (need {"candidates": [...]} or a list of candidates)`,
    );
    return;
  }
  if (isPlainObject(raw))
    unknownKeys(raw, new Set(['$schema', 'candidates']), { out, record: prefix || undefined });
  // Records are named only when something is wrong with one: a pool may hold a hundred thousand.
  const nameOf = (k: number) => `${prefix}${recordName('candidates', k, list[k])}`;
  let current = 0;
  const at: At = {
    out,
    get record() {
      return nameOf(current);
    },
  };
  const records: (Json | undefined)[] = [];
  const seen = { clean: [] as readonly string[] };
  for (; current < list.length; current++) {
    const record = lintCandidate(list[current], at, rules, seen);
    // A list whose elements are not records is another document than a pool: the first such
    // element says so, and the rest (possibly millions) would only repeat it.
    if (record === undefined) return;
    records.push(record);
  }
  acrossRecords(records, out, nameOf);
}

/** Duplicate ids, dependencies on no candidate, all-or-none groups spanning classes. */
function acrossRecords(
  records: readonly (Json | undefined)[],
  out: Findings,
  nameOf: (k: number) => string,
): void {
  const firstAt = new Map<string, number>();
  records.forEach((o, k) => {
    const id = o?.candidate_id;
    if (typeof id !== 'string') return;
    const before = firstAt.get(id);
    if (before === undefined) firstAt.set(id, k);
    else out.error(nameOf(k), 'candidate_id', `duplicate candidate_id (also ${nameOf(before)})`);
  });
  const groups = new Map<string, { first: number; classes: Set<string> }>();
  records.forEach((o, k) => {
    if (o === undefined) return;
    const deps = o.depends_on;
    if (Array.isArray(deps))
      for (const dep of deps)
        if (typeof dep === 'string' && !firstAt.has(dep))
          out.error(
            nameOf(k),
            'depends_on',
            `unknown dependency ${quote(dep)} in depends_on (no candidate has this id)`,
          );
    const g = o.group_id;
    if (typeof g !== 'string' || g === '' || !pyTruthy(o.group_required) || typeof o.requirement !== 'string')
      return;
    const group = groups.get(g) ?? { first: k, classes: new Set<string>() };
    groups.set(g, group);
    group.classes.add(o.requirement);
  });
  for (const [g, { first, classes }] of groups)
    if (classes.size > 1)
      out.error(
        nameOf(first),
        'requirement',
        `required group ${quote(g)} spans bands: ${[...classes].sort().join(',')} (every member of an all-or-none group declares one requirement)`,
      );
}
