/**
 * Records one or two fields away from a valid one, to hold two judges of validity (a JSON
 * Schema and a reader) against each other: each key deleted, set to every value of a palette
 * that covers every JSON type, the edges of every range and the words of every list, and
 * unknown keys added.
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
