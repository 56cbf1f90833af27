/** Which units of a fast greedy pass must be re-evaluated when something is admitted. */
import type { CompileState } from '../../state.js';
import type { Unit } from './unit.js';

const add = <K, V>(map: Map<K, V[]>, key: K, value: V) => {
  const list = map.get(key);
  if (list === undefined) map.set(key, [value]);
  else if (list[list.length - 1] !== value) list.push(value);
};

export interface Index {
  readonly byNode: ReadonlyMap<string, readonly Unit[]>;
  readonly byIdentity: ReadonlyMap<string, readonly Unit[]>;
  readonly byKey: ReadonlyMap<string, readonly Unit[]>;
}

/**
 * Who must hear of what. A node can be admitted by another unit only if something depends on
 * it (or, in refuse mode, it has group mates); a content can be admitted behind a unit's back
 * only if it has another form. Everything else changes only through the unit's own commit.
 */
export function buildIndex(s: CompileState, units: readonly Unit[]): Index {
  const { pool } = s;
  const targets = new Set<string>();
  for (const c of pool.candidates) for (const d of c.depends_on) targets.add(d);
  if (pool.strict)
    for (const members of pool.groups.values()) for (const m of members) targets.add(m.candidate_id);
  const byNode = new Map<string, Unit[]>();
  const byIdentity = new Map<string, Unit[]>();
  const byKey = new Map<string, Unit[]>();
  for (const u of units) {
    for (const m of u.potential) {
      for (const n of pool.unitClosure(m.candidate_id)) {
        if (targets.has(n)) add(byNode, n, u);
        const identity = pool.get(n).content_identity;
        if ((pool.byIdentity.get(identity)?.length ?? 0) > 1) add(byIdentity, identity, u);
      }
      for (const k of m.coverage_keys) add(byKey, k, u);
    }
  }
  return { byNode, byIdentity, byKey };
}
