/**
 * Reading JSON fields the way the reference does: lenient about absent optional keys (each has a
 * documented default), strict about types, and with the reference's error texts
 * (docs/compiler.md §2.7). Every reader of `read.ts` is built from these.
 */
/**
 * Malformed input. The message is the reference's text (docs/compiler.md §2.7 and §4);
 * `field` names the JSON key at fault when there is one, so a caller can point at it.
 */
export class RecordError extends Error {
  override readonly name = 'RecordError';
  readonly field: string | undefined;
  constructor(message: string, field?: string | undefined) {
    super(message);
    this.field = field;
  }
}

export type Json = Record<string, unknown>;

/**
 * A value quoted for an error message: its JSON, elided past 60 characters, so that a message
 * stays one short line whatever the input held (JSON escapes the line breaks).
 */
export function quote(v: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(v ?? null) ?? String(v);
  } catch {
    // A library caller's value may nest past the call stack or hold a cycle: named, not shown.
    return Array.isArray(v) ? '[…]' : typeof v === 'object' ? '{…}' : typeof v;
  }
  return text.length <= 60 ? text : `${text.slice(0, 48)}…(${text.length} characters)`;
}

/** A JSON object: not null, not an array. */
export const isPlainObject = (v: unknown): v is Json =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

export function asObject(v: unknown, thing: string): Json {
  if (!isPlainObject(v)) throw new RecordError(`${thing} is not an object`);
  return v;
}

/** Absent is fine (the current version is assumed); present must be one of `accepted`. */
export function checkSchema(o: Json, recordName: string, accepted: readonly string[]): string {
  if (!('schema_version' in o) || o.schema_version === undefined) return accepted[0] as string;
  const v = o.schema_version;
  if (typeof v !== 'string' || !accepted.includes(v)) {
    throw new RecordError(`unsupported ${recordName} schema: ${quote(v)}`, 'schema_version');
  }
  return v;
}

export function str(o: Json, key: string): string {
  const v = o[key];
  if (typeof v !== 'string') throw new RecordError(`invalid ${key}`, key);
  return v;
}

export function optStr(o: Json, key: string, fallback: string): string {
  const v = o[key];
  if (v === undefined || v === null) return fallback;
  if (typeof v !== 'string') throw new RecordError(`invalid ${key}`, key);
  return v;
}

export function strOrNull(o: Json, key: string): string | null {
  const v = o[key];
  if (v === undefined || v === null) return null;
  if (typeof v !== 'string') throw new RecordError(`invalid ${key}`, key);
  return v;
}

export function num(o: Json, key: string): number {
  const v = o[key];
  if (typeof v !== 'number' || !Number.isFinite(v)) throw new RecordError(`invalid ${key}`, key);
  return v;
}

export function bool(o: Json, key: string): boolean {
  const v = o[key];
  if (typeof v !== 'boolean') throw new RecordError(`invalid ${key}`, key);
  return v;
}

export function strList(o: Json, key: string): string[] {
  const v = o[key];
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v) || !v.every((x) => typeof x === 'string'))
    throw new RecordError(`invalid ${key}`, key);
  return [...v];
}

const DECIMAL = /^\s*[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?\s*$/;

/** Python's `float(x)`: numbers, booleans and numeric strings; anything else is invalid. */
export function coerceNumber(o: Json, key: string, fallback: number): number {
  const v = o[key];
  if (v === undefined || v === null) return fallback;
  if (typeof v === 'number' && Number.isFinite(v)) return v;
  if (typeof v === 'boolean') return v ? 1 : 0;
  // A decimal too large for a double ("1e400") would read as Infinity and be written back as null.
  if (typeof v === 'string' && DECIMAL.test(v) && Number.isFinite(Number(v))) return Number(v);
  throw new RecordError(`invalid ${key}`, key);
}

/** Python's truthiness, which the reference applies to `group_required` and `is_default_form`. */
export function pyTruthy(v: unknown): boolean {
  if (v === undefined || v === null || v === false) return false;
  if (typeof v === 'number') return v !== 0;
  if (typeof v === 'string') return v.length > 0;
  if (Array.isArray(v)) return v.length > 0;
  if (typeof v === 'object') return Object.keys(v).length > 0;
  return Boolean(v);
}

/** Trace integers: non-integers go through base-10 integer parsing, as the reference does. */
export function traceInt(o: Json, key: string): number {
  const v = o[key];
  if (typeof v === 'number' && Number.isInteger(v)) return v;
  if (v === undefined || v === null) return 0;
  const parsed = Number.parseInt(String(v), 10);
  return Number.isNaN(parsed) ? 0 : parsed;
}

export function oneOf<T extends string>(v: unknown, allowed: readonly T[], what: string, field: string): T {
  if (typeof v === 'string' && (allowed as readonly string[]).includes(v)) return v as T;
  throw new RecordError(`unsupported ${what}: ${quote(v)}`, field);
}
