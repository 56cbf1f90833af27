/**
 * A JSON Schema (draft 2020-12) validator for exactly the keywords the shipped schemas use, so
 * that the tests can hold the schemas against the readers without a dependency. A keyword it
 * does not know throws: a schema that starts using one must teach it here first, rather than
 * have it ignored.
 */
import fs from 'node:fs';
import path from 'node:path';

type Schema = boolean | { readonly [keyword: string]: unknown };

/** Keywords that say nothing about validity. */
const ANNOTATIONS = new Set(['$schema', '$defs', 'title', 'description', 'default', 'examples']);
const KNOWN = new Set([
  ...ANNOTATIONS,
  '$ref',
  'type',
  'enum',
  'const',
  'properties',
  'required',
  'additionalProperties',
  'items',
  'minimum',
  'maximum',
  'minLength',
  'oneOf',
  'anyOf',
  'if',
  'then',
]);

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

function typeMatches(type: string, v: unknown): boolean {
  switch (type) {
    case 'null':
      return v === null;
    case 'boolean':
      return typeof v === 'boolean';
    case 'string':
      return typeof v === 'string';
    case 'number':
      return typeof v === 'number' && Number.isFinite(v);
    case 'integer':
      return typeof v === 'number' && Number.isInteger(v);
    case 'array':
      return Array.isArray(v);
    case 'object':
      return isObject(v);
    default:
      throw new Error(`unknown type ${type}`);
  }
}

/** Structural equality of JSON values, as `const` and `enum` compare. */
function equal(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => equal(x, b[i]));
  if (isObject(a) && isObject(b)) {
    const ka = Object.keys(a);
    return ka.length === Object.keys(b).length && ka.every((k) => Object.hasOwn(b, k) && equal(a[k], b[k]));
  }
  return false;
}

/** The schemas of a folder, each by file name; `$ref`s resolve between them. */
export class SchemaSet {
  private readonly docs = new Map<string, Schema>();

  constructor(dir: string) {
    for (const f of fs.readdirSync(dir).filter((f) => f.endsWith('.schema.json')))
      this.docs.set(f, JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8')) as Schema);
  }

  get names(): string[] {
    return [...this.docs.keys()].sort();
  }

  schema(name: string): Schema {
    const s = this.docs.get(name);
    if (s === undefined) throw new Error(`no schema ${name}`);
    return s;
  }

  /** Where `value` fails `name`'s schema, as JSON-pointer-ish paths with the keyword; empty if valid. */
  errors(name: string, value: unknown): string[] {
    const out: string[] = [];
    this.check(this.schema(name), value, name, '', out);
    return out;
  }

  valid(name: string, value: unknown): boolean {
    return this.errors(name, value).length === 0;
  }

  private resolve(ref: string, doc: string): { schema: Schema; doc: string } {
    const [file, pointer] = ref.split('#') as [string, string | undefined];
    const target = file === '' ? doc : file;
    let node: unknown = this.schema(target);
    for (const part of (pointer ?? '').split('/').filter((p) => p !== '')) {
      if (!isObject(node) || !Object.hasOwn(node, part)) throw new Error(`unresolved $ref ${ref} in ${doc}`);
      node = node[part];
    }
    return { schema: node as Schema, doc: target };
  }

  private check(schema: Schema, v: unknown, doc: string, at: string, out: string[]): void {
    if (schema === true) return;
    if (schema === false) {
      out.push(`${at}: false`);
      return;
    }
    for (const k of Object.keys(schema))
      if (!KNOWN.has(k)) throw new Error(`keyword ${k} unsupported (${doc})`);
    const s = schema as Record<string, unknown>;
    const fail = (keyword: string) => out.push(`${at || '/'}: ${keyword}`);
    if (typeof s.$ref === 'string') {
      const r = this.resolve(s.$ref, doc);
      this.check(r.schema, v, r.doc, at, out);
    }
    if (s.type !== undefined) {
      const types = Array.isArray(s.type) ? (s.type as string[]) : [s.type as string];
      if (!types.some((t) => typeMatches(t, v))) fail('type');
    }
    if (Array.isArray(s.enum) && !s.enum.some((e) => equal(e, v))) fail('enum');
    if ('const' in s && !equal(s.const, v)) fail('const');
    if (typeof v === 'number') {
      if (typeof s.minimum === 'number' && v < s.minimum) fail('minimum');
      if (typeof s.maximum === 'number' && v > s.maximum) fail('maximum');
    }
    if (typeof v === 'string' && typeof s.minLength === 'number' && [...v].length < s.minLength)
      fail('minLength');
    if (Array.isArray(v) && s.items !== undefined)
      v.forEach((x, i) => {
        this.check(s.items as Schema, x, doc, `${at}/${i}`, out);
      });
    if (isObject(v)) this.object(s, v, doc, at, out, fail);
    const passes = (sub: unknown) => this.passes(sub as Schema, v, doc, at);
    if (Array.isArray(s.oneOf) && s.oneOf.filter(passes).length !== 1) fail('oneOf');
    if (Array.isArray(s.anyOf) && !s.anyOf.some(passes)) fail('anyOf');
    if (s.if !== undefined && passes(s.if) && s.then !== undefined)
      this.check(s.then as Schema, v, doc, at, out);
  }

  private object(
    s: Record<string, unknown>,
    v: Record<string, unknown>,
    doc: string,
    at: string,
    out: string[],
    fail: (keyword: string) => void,
  ): void {
    const props = (isObject(s.properties) ? s.properties : {}) as Record<string, Schema>;
    if (Array.isArray(s.required))
      for (const key of s.required as string[]) if (!Object.hasOwn(v, key)) fail(`required ${key}`);
    for (const [key, value] of Object.entries(v)) {
      const where = `${at}/${key}`;
      if (Object.hasOwn(props, key)) this.check(props[key] as Schema, value, doc, where, out);
      else if (s.additionalProperties !== undefined)
        this.check(s.additionalProperties as Schema, value, doc, where, out);
    }
  }

  private passes(schema: Schema, v: unknown, doc: string, at: string): boolean {
    const out: string[] = [];
    this.check(schema, v, doc, at, out);
    return out.length === 0;
  }
}
