/**
 * A pool's candidates by id, and its required groups, made once per pool. The harness audits every cell of a case, and
 * `exact` prices bundle after bundle, each looking candidates up by id in a pool of thousands:
 * a frozen pool (a corpus's, or a strategy process's copy) cannot change, so its index is kept
 * with it; a pool that can change is indexed again each time.
 */
import { type ContextCandidate, requiredGroups } from '../../compiler/index.js';

const indexes = new WeakMap<readonly ContextCandidate[], ReadonlyMap<string, ContextCandidate>>();

/** The candidates of `pool` by id; the last of an id when a pool repeats one, as a Map made of it keeps. */
export function byId(pool: readonly ContextCandidate[]): ReadonlyMap<string, ContextCandidate> {
  let index = indexes.get(pool);
  if (index === undefined) {
    index = new Map(pool.map((c) => [c.candidate_id, c]));
    if (Object.isFrozen(pool)) indexes.set(pool, index);
  }
  return index;
}

const groups = new WeakMap<readonly ContextCandidate[], ReadonlyMap<string, readonly ContextCandidate[]>>();

/** The required groups of `pool` (the compiler's `requiredGroups`), kept as its index is. */
export function groupsOf(
  pool: readonly ContextCandidate[],
): ReadonlyMap<string, readonly ContextCandidate[]> {
  let made = groups.get(pool);
  if (made === undefined) {
    made = requiredGroups(pool);
    if (Object.isFrozen(pool)) groups.set(pool, made);
  }
  return made;
}
