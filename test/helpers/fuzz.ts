/**
 * Inputs derived from the corpus by breaking them: fields deleted, retyped, duplicated, renamed,
 * added or swapped in the parsed document, then bytes flipped, cut, repeated, re-encoded or made
 * invalid UTF-8 in its text, with the values, keys, number tokens and bytes of the palette
 * (break-it.ts). fast-check draws a mutation as data; applying it is deterministic.
 */
import fc from 'fast-check';
import { BAD_UTF8, type Json, keysFor, NUMBER_TOKENS, valuesFor } from './break-it.js';

export type { Json };

export const FIELD_OPS = ['delete', 'retype', 'duplicate', 'rename', 'insert', 'swap'] as const;
export const BYTE_OPS = [
  'flip',
  'truncate',
  'insert',
  'bom',
  'utf16',
  'number',
  'cut',
  'repeat',
  'bad-utf8',
] as const;

export type Mutation =
  | {
      readonly level: 'field';
      readonly op: (typeof FIELD_OPS)[number];
      readonly at: number;
      readonly other: number;
      readonly value: Json;
      readonly name: string;
    }
  | {
      readonly level: 'byte';
      readonly op: (typeof BYTE_OPS)[number];
      readonly at: number;
      readonly length: number;
      readonly bytes: readonly number[];
    };

const fieldMutation: fc.Arbitrary<Mutation> = fc.record({
  level: fc.constant('field' as const),
  op: fc.constantFrom(...FIELD_OPS),
  at: fc.nat(),
  other: fc.nat(),
  value: fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(...valuesFor('documents')) },
    { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 2 }) as fc.Arbitrary<Json> },
  ),
  name: fc.oneof(fc.constantFrom(...keysFor('documents')), fc.string({ maxLength: 8 })),
});

const byteMutation: fc.Arbitrary<Mutation> = fc.record({
  level: fc.constant('byte' as const),
  op: fc.constantFrom(...BYTE_OPS),
  at: fc.nat(),
  length: fc.integer({ min: 1, max: 64 }),
  bytes: fc.array(fc.integer({ min: 0, max: 255 }), { minLength: 1, maxLength: 4 }),
});

/** One to three mutations, field ones first (they need the parsed document), bytes after. */
export const mutations: fc.Arbitrary<readonly Mutation[]> = fc
  .array(fc.oneof({ weight: 3, arbitrary: fieldMutation }, { weight: 2, arbitrary: byteMutation }), {
    minLength: 1,
    maxLength: 3,
  })
  .map((ms) => [...ms.filter((m) => m.level === 'field'), ...ms.filter((m) => m.level === 'byte')]);

interface Place {
  readonly parent: Json[] | { [key: string]: Json } | null;
  readonly key: string | number;
}

/** Every place in a document, the root first, in document order. */
function places(doc: Json): Place[] {
  const out: Place[] = [{ parent: null, key: '' }];
  const walk = (v: Json) => {
    if (Array.isArray(v))
      v.forEach((item, k) => {
        out.push({ parent: v, key: k });
        walk(item);
      });
    else if (v !== null && typeof v === 'object')
      for (const [key, item] of Object.entries(v)) {
        out.push({ parent: v, key });
        walk(item);
      }
  };
  walk(doc);
  return out;
}

const get = (doc: Json, p: Place): Json =>
  p.parent === null ? doc : ((p.parent as Record<string | number, Json>)[p.key] as Json);

const copy = (v: Json): Json => (v === undefined ? null : structuredClone(v));

/** Set a key so that even `__proto__` becomes an own property, as JSON.parse makes it. */
function setOwn(o: { [key: string]: Json }, key: string, value: Json) {
  Object.defineProperty(o, key, { value, enumerable: true, writable: true, configurable: true });
}

/** The document after one field mutation; `undefined` stands for a document deleted whole. */
function mutateField(doc: Json, m: Extract<Mutation, { level: 'field' }>): Json | undefined {
  const all = places(doc);
  const p = all[m.at % all.length] as Place;
  const parent = p.parent;
  const set = (v: Json) => {
    if (parent === null) return v;
    if (Array.isArray(parent)) parent[p.key as number] = v;
    else setOwn(parent, p.key as string, v);
    return doc;
  };
  switch (m.op) {
    case 'delete':
      if (parent === null) return undefined;
      if (Array.isArray(parent)) parent.splice(p.key as number, 1);
      else delete parent[p.key as string];
      return doc;
    case 'retype':
      return set(copy(m.value));
    case 'duplicate': {
      const v = copy(get(doc, p));
      if (parent === null) return [v, copy(v)];
      if (Array.isArray(parent)) parent.splice((p.key as number) + 1, 0, v);
      else setOwn(parent, m.name, v);
      return doc;
    }
    case 'rename': {
      if (parent === null || Array.isArray(parent)) return set(copy(m.value));
      const v = parent[p.key as string] as Json;
      delete parent[p.key as string];
      setOwn(parent, m.name, v);
      return doc;
    }
    case 'insert': {
      const target = get(doc, p);
      if (Array.isArray(target)) target.push(copy(m.value));
      else if (target !== null && typeof target === 'object') setOwn(target, m.name, copy(m.value));
      else return set(copy(m.value));
      return doc;
    }
    case 'swap': {
      const q = all[m.other % all.length] as Place;
      if (q.parent === null || parent === null) return set(copy(get(doc, q)));
      const a = copy(get(doc, p));
      const b = copy(get(doc, q));
      set(b);
      if (Array.isArray(q.parent)) q.parent[q.key as number] = a;
      else setOwn(q.parent, q.key as string, a);
      return doc;
    }
  }
}

/** The text after one byte mutation. */
function mutateBytes(text: Buffer, m: Extract<Mutation, { level: 'byte' }>): Buffer {
  const n = Math.max(1, text.length);
  const at = m.at % n;
  const bytes = Buffer.from(m.bytes);
  switch (m.op) {
    case 'flip': {
      const out = Buffer.from(text);
      if (out.length > 0) out[at] = bytes[0] as number;
      return out;
    }
    case 'truncate':
      return text.subarray(0, at);
    case 'insert':
      return Buffer.concat([text.subarray(0, at), bytes, text.subarray(at)]);
    case 'bom':
      return Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), text]);
    case 'utf16':
      return Buffer.concat([
        m.at % 2 === 0 ? Buffer.from([0xff, 0xfe]) : Buffer.alloc(0),
        Buffer.from(text.toString('utf8'), 'utf16le'),
      ]);
    case 'number': {
      // A number token replaced by something JSON does not allow (or a double cannot hold).
      const s = text.toString('utf8');
      const found = [...s.matchAll(/(?<=[:[,]\s*)-?\d+(\.\d+)?([eE][+-]?\d+)?/g)];
      const hit = found[at % Math.max(1, found.length)];
      if (hit === undefined) return text;
      const token = NUMBER_TOKENS[m.length % NUMBER_TOKENS.length] as string;
      return Buffer.from(s.slice(0, hit.index) + token + s.slice(hit.index + hit[0].length), 'utf8');
    }
    case 'cut':
      return Buffer.concat([text.subarray(0, at), text.subarray(at + m.length)]);
    case 'repeat':
      return Buffer.concat([text.subarray(0, at + m.length), text.subarray(at)]);
    case 'bad-utf8': {
      // Inside a string where there is one: the place a decoder that guesses would hide it.
      const quote = text.indexOf(0x22, at);
      const where = quote < 0 ? at : quote + 1;
      const bad = Buffer.from(BAD_UTF8[m.length % BAD_UTF8.length] as readonly number[]);
      return Buffer.concat([text.subarray(0, where), bad, text.subarray(where)]);
    }
  }
}

/** A document broken by `ms`, as the bytes of a file (`indent` as the corpus writes it). */
export function breakDocument(doc: Json, ms: readonly Mutation[], indent = 2): Buffer {
  let value: Json | undefined = structuredClone(doc);
  for (const m of ms) if (m.level === 'field' && value !== undefined) value = mutateField(value, m);
  let text: Buffer = Buffer.from(value === undefined ? '' : JSON.stringify(value, null, indent), 'utf8');
  for (const m of ms) if (m.level === 'byte') text = mutateBytes(text, m);
  return text;
}

/** The mutations as one short line, to name a failing input. */
export const describeMutations = (ms: readonly Mutation[]): string =>
  ms
    .map((m) =>
      m.level === 'field'
        ? `${m.op}@${m.at}${m.op === 'rename' || m.op === 'insert' ? `:${JSON.stringify(m.name)}` : ''}`
        : `${m.op}@${m.at}`,
    )
    .join(' ');
