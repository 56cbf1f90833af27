/**
 * Records one or two fields away from a valid one, to hold two judges of validity (a JSON
 * Schema and a reader) against each other: each key deleted, set to every value of a palette
 * that covers every JSON type, the edges of every range and the words of every list, and
 * unknown keys added. And the fields a writer writes as null, each deleted outright, for the
 * validators of compilations (mutants.ts, forgeries.ts): a reader takes a missing one as null.
 */
type Json = Record<string, unknown>;

/** Values a writer might put anywhere: every type, the edges of every range, words of every list. */
const PALETTE: readonly unknown[] = [
  null,
  true,
  false,
  0,
  -1,
  0.5,
  1.5,
  44.5,
  7,
  '',
  'x',
  '0.5',
  'MANDATORY',
  'cheapest',
  'planned',
  'refuse',
  'rendered',
  'v2',
  'none',
  'must',
  'T3',
  'project_context.context_candidate.v1',
  [],
  ['a'],
  [1],
  {},
  { success: true },
];
const UNKNOWN_KEYS = ['dependsOn', 'Relevance', 'x', '$schema'];

/** Every record one field away from `base`: each key deleted, set to each value, unknown keys added. */
export function* mutants(
  base: Json,
  keys: readonly string[],
): Generator<{ what: string; record: Json; deleted?: string }> {
  for (const key of keys) {
    if (Object.hasOwn(base, key)) {
      const { [key]: _, ...rest } = base;
      yield { what: `without ${key}`, record: rest, deleted: key };
    }
    for (const v of PALETTE) yield { what: `${key}: ${JSON.stringify(v)}`, record: { ...base, [key]: v } };
  }
  for (const key of UNKNOWN_KEYS) yield { what: `+${key}`, record: { ...base, [key]: 1 } };
}

/** A small deterministic stream of numbers, to pick pairs of mutations without a dependency. */
export function* lcg(seed: number): Generator<number> {
  let x = seed;
  for (;;) {
    x = (x * 1103515245 + 12345) % 2 ** 31;
    yield x;
  }
}

/** A place in a JSON value: keys and indices from its root. */
export type JsonPath = readonly (string | number)[];

/** Every place in `x` whose value is null, depth first, skipping the subtrees `skip` names. */
export function nullPaths(x: unknown, skip: readonly string[] = [], at: JsonPath = []): JsonPath[] {
  if (x === null) return at.length === 0 ? [] : [at];
  if (Array.isArray(x)) return x.flatMap((v, k) => nullPaths(v, skip, [...at, k]));
  if (typeof x !== 'object') return [];
  return Object.entries(x as Json)
    .filter(([key]) => !(at.length === 0 && skip.includes(key)))
    .flatMap(([key, v]) => nullPaths(v, skip, [...at, key]));
}

/** A copy of `x` with the field at `path` deleted outright (not set to null). */
export function withoutField<T>(x: T, path: JsonPath): T {
  const copy = structuredClone(x);
  let node = copy as unknown as Json;
  for (const step of path.slice(0, -1)) node = node[step as string] as Json;
  const last = path[path.length - 1] as string;
  if (Array.isArray(node)) throw new Error(`${path.join('.')}: an element, not a field`);
  delete node[last];
  return copy;
}

/** A path as the checks write it: `result.trace.entries[3].position`. */
export const pathText = (path: JsonPath): string =>
  path.map((p, k) => (typeof p === 'number' ? `[${p}]` : k === 0 ? p : `.${p}`)).join('');
