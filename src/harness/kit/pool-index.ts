/**
 * What is made of a whole pool, made once per pool: its candidates by id, its required groups,
 * and whatever a caller keeps with it (`keptWith`). The harness audits and measures every cell of
 * a case, and `exact` prices bundle after bundle, each reading a pool of thousands: a frozen pool
 * (a corpus's, or a strategy process's copy) cannot change, so what is made of it is kept with
 * it; a pool that can change is read again each time.
 */
import { type ContextCandidate, requiredGroups } from '../../compiler/index.js';

/** What `make` makes of `pool`, kept in `kept` while a frozen pool lives; made each time for another. */
export function keptWith<T>(
  kept: WeakMap<readonly ContextCandidate[], T>,
  pool: readonly ContextCandidate[],
  make: () => T,
): T {
  let made = kept.get(pool);
  if (made === undefined) {
    made = make();
    if (Object.isFrozen(pool)) kept.set(pool, made);
  }
  return made;
}

const indexes = new WeakMap<readonly ContextCandidate[], ReadonlyMap<string, ContextCandidate>>();

/** The candidates of `pool` by id; the last of an id when a pool repeats one, as a Map made of it keeps. */
export const byId = (pool: readonly ContextCandidate[]): ReadonlyMap<string, ContextCandidate> =>
  keptWith(indexes, pool, () => new Map(pool.map((c) => [c.candidate_id, c])));

const groups = new WeakMap<readonly ContextCandidate[], ReadonlyMap<string, readonly ContextCandidate[]>>();

/** The required groups of `pool` (the compiler's `requiredGroups`), kept as its index is. */
export const groupsOf = (
  pool: readonly ContextCandidate[],
): ReadonlyMap<string, readonly ContextCandidate[]> => keptWith(groups, pool, () => requiredGroups(pool));
