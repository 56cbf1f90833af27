/**
 * Field checks the record rules are made of. Each mirrors what the compiler's reader does with
 * the field (docs/compiler.md §2.7), so that a record without errors here is one the reader
 * accepts, and says it in words a user can act on: `missing x` when the key is absent, `invalid
 * x: <value> (need ...)` when it holds the wrong thing, the allowed values listed. What the
 * reader accepts by coercion (a string where a number belongs, Python truthiness) is a warning.
 */
import { coerceNumber, isPlainObject, quote } from '../../compiler/index.js';
import { alternatives, type Findings, fieldName } from './lint.js';

type Json = Readonly<Record<string, unknown>>;

/** Where findings of one record go: the file's findings, the record's name, a key prefix. */
export interface At {
  readonly out: Findings;
  readonly record: string | undefined;
  /** Prepended to keys in messages, for nested records (`budgets.`, `expected.tight.`). */
  readonly prefix?: string | undefined;
}

const name = (at: At, key: string) => fieldName(`${at.prefix ?? ''}${key}`);

/** A value as a message shows it; non-finite numbers (a JSON `1e400`) by name, not as null. */
export const shown = (v: unknown): string =>
  typeof v === 'number' && !Number.isFinite(v) ? String(v) : quote(v);

/**
 * What a count needs when it is too large to count exactly: budgets and token counts are added
 * up, and past 2^53 - 1 a double no longer holds every integer.
 */
export const SAFE_COUNT = `an integer >= 0 and at most 2^53 - 1 (${Number.MAX_SAFE_INTEGER})`;

/** Absent or null: the reader's default applies. */
const absent = (v: unknown) => v === undefined || v === null;

export const has = (o: Json, key: string): boolean => Object.hasOwn(o, key);

export function missing(key: string, at: At, need?: string): undefined {
  at.out.error(at.record, name(at, key), `missing ${name(at, key)}${need ? ` (need ${need})` : ''}`);
  return undefined;
}

export function invalid(key: string, v: unknown, need: string, at: At): undefined {
  at.out.error(at.record, name(at, key), `invalid ${name(at, key)}: ${shown(v)} (need ${need})`);
  return undefined;
}

export function warn(key: string, at: At, text: string): void {
  at.out.warning(at.record, `${at.prefix ?? ''}${key}`, text);
}

/** A required string; ids must not be empty either. */
export function requiredString(o: Json, key: string, at: At, nonEmpty = false): string | undefined {
  if (!has(o, key)) return missing(key, at);
  const v = o[key];
  const need = nonEmpty ? 'a non-empty string' : 'a string';
  if (typeof v !== 'string' || (nonEmpty && v === '')) return invalid(key, v, need, at);
  return v;
}

/** An optional string: absent or null take the reader's default. */
export function optionalString(o: Json, key: string, at: At): void {
  const v = o[key];
  if (!absent(v) && typeof v !== 'string') invalid(key, v, 'a string or null', at);
}

/** A required finite number (a JSON number too large for a double is not one). */
export function requiredNumber(o: Json, key: string, at: At, need = 'a number'): number | undefined {
  if (!has(o, key)) return missing(key, at, need);
  const v = o[key];
  if (typeof v !== 'number' || !Number.isFinite(v)) return invalid(key, v, need, at);
  return v;
}

/** A required JSON boolean: the reader takes nothing else. */
export function requiredBoolean(o: Json, key: string, at: At): void {
  if (!has(o, key)) missing(key, at, 'true or false');
  else if (typeof o[key] !== 'boolean') invalid(key, o[key], 'true or false', at);
}

/** A list of strings; absent or null is the empty list. */
export function stringList(o: Json, key: string, at: At): readonly string[] | undefined {
  const v = o[key];
  if (absent(v)) return [];
  if (!Array.isArray(v) || !v.every((x) => typeof x === 'string'))
    return invalid(key, v, 'a list of strings', at);
  return v as string[];
}

/** One of a word list; `required` says whether absence is a problem or the default. */
export function word(
  o: Json,
  key: string,
  values: readonly string[],
  at: At,
  required: boolean,
): string | undefined {
  const v = o[key];
  if (required && !has(o, key)) return missing(key, at, alternatives(values));
  if (!required && absent(v)) return undefined;
  if (typeof v !== 'string' || !values.includes(v)) {
    const need = alternatives(values);
    at.out.error(at.record, name(at, key), `unsupported ${name(at, key)}: ${shown(v)} (need ${need})`);
    return undefined;
  }
  return v;
}

/** `schema_version` is optional; present, it must be the record's own (or one it still reads). */
export function schemaVersion(o: Json, accepted: readonly string[], at: At): void {
  if (!has(o, 'schema_version')) return;
  const v = o.schema_version;
  if (typeof v !== 'string' || !accepted.includes(v))
    at.out.error(
      at.record,
      'schema_version',
      `unsupported schema_version: ${shown(v)} (need ${alternatives(accepted.map((s) => quote(s)))})`,
    );
}

/**
 * A number the reader coerces like Python's `float()`: a JSON number is right, a boolean or a
 * numeric string is read but warned about, anything else is invalid. Returns the value read.
 */
export function looseNumber(o: Json, key: string, at: At, need: string): number | undefined {
  const v = o[key];
  if (absent(v)) return undefined;
  let read: number;
  try {
    read = coerceNumber(o as Record<string, unknown>, key, 0);
  } catch {
    return invalid(key, v, need, at);
  }
  if (typeof v !== 'number') warn(key, at, `${shown(v)} is not a number; read as ${read}`);
  return read;
}

/** A flag the reader takes by Python truthiness: anything goes, a non-boolean is warned about. */
export function truthyFlag(o: Json, key: string, at: At, read: (v: unknown) => boolean): void {
  const v = o[key];
  if (!absent(v) && typeof v !== 'boolean')
    warn(key, at, `${shown(v)} is not true or false; read as ${read(v)}`);
}

/** A nested object, or a problem. */
export function object(o: Json, key: string, at: At, need: string, required = true): Json | undefined {
  if (!has(o, key) || o[key] === undefined) return required ? missing(key, at, need) : undefined;
  const v = o[key];
  if (!isPlainObject(v)) return invalid(key, v, need, at);
  return v;
}

/** The key `known` lists closest to an unknown one: same letters, a prefix, or one or two edits away. */
export function closest(key: string, known: Iterable<string>): string | undefined {
  const squash = (s: string) => s.toLowerCase().replace(/[^a-z0-9]/g, '');
  let best: string | undefined;
  let bestDistance = 3;
  for (const k of known) {
    if (k.startsWith('$')) continue;
    // A known key the unknown one abbreviates (`min_repr`) is as likely as a typo.
    const abbreviates = key.length >= 4 && squash(k).startsWith(squash(key));
    const d = squash(k) === squash(key) ? 0 : abbreviates ? 1 : editDistance(k, key, bestDistance);
    if (d < bestDistance) [best, bestDistance] = [k, d];
  }
  return best;
}

/** Levenshtein distance, given up (returning `limit`) once it reaches `limit`. */
function editDistance(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) >= limit || b.length > 64) return limit;
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      next[j] = Math.min((row[j] as number) + 1, (next[j - 1] as number) + 1, (row[j - 1] as number) + cost);
    }
    row = next;
    if (Math.min(...row) >= limit) return limit;
  }
  return Math.min(row[b.length] as number, limit);
}

/** `$schema` is for editors: a string, or a warning. */
export function schemaKey(o: Json, at: At): void {
  if (has(o, '$schema') && typeof o.$schema !== 'string')
    warn('$schema', at, `${shown(o.$schema)} is not a string; ignored`);
}

/**
 * Every key the record's reader does not know is a warning: it is ignored, which was rarely
 * meant. `$schema`, where `known` lists it, is for editors: a string, or a warning too.
 */
export function unknownKeys(
  o: Json,
  known: ReadonlySet<string>,
  at: At,
  skip?: (key: string) => boolean,
): void {
  if (known.has('$schema')) schemaKey(o, at);
  for (const key of Object.keys(o)) {
    if (known.has(key) || skip?.(key)) continue;
    const near = closest(key, known);
    warn(key, at, `unknown field${near === undefined ? '' : ` (did you mean ${near}?)`}`);
  }
}
