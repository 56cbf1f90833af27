/**
 * The drops of `repair-reference.ts` without its rescans (docs/compiler.md §11.3, §18): candidates that
 * nothing live depends on wait in a heap by render position, and a drop releases what it held.
 * In refuse mode a required group may go only when no survivor outside it depends on a member;
 * a count of such outside edges per group says when that becomes true.
 */

import type { ContextCandidate } from '../../compiler-types.js';
import { requiredGroupOf } from '../../groups.js';
import { Heap } from '../../heap.js';
import type { CompileState } from '../../state.js';
import { headerCost } from '../../tokens.js';
import { drop, victimsOf } from './victims.js';

export function repairFast(s: CompileState, start: readonly ContextCandidate[]): ContextCandidate[] | null {
  const { pool } = s;
  const { request, policy } = pool;
  const strict = pool.strict;
  const position = new Map(start.map((c, k) => [c.candidate_id, k]));
  const alive = new Set(position.keys());
  /** Live candidates that depend on each id. */
  const holders = new Map<string, number>();
  /** Refuse mode: dependencies from live candidates outside each required group into it. */
  const outside = new Map<string, number>();
  const depsOf = (c: ContextCandidate) =>
    [...new Set(c.depends_on)].filter((d) => d !== c.candidate_id && alive.has(d));
  /** The required group a dependency edge from `c` to `d` enters from outside, if any. */
  const entered = (c: ContextCandidate, d: string): string | null => {
    const g = requiredGroupOf(pool.get(d));
    return g !== null && g !== requiredGroupOf(c) ? g : null;
  };
  for (const c of start) {
    for (const d of depsOf(c)) {
      holders.set(d, (holders.get(d) ?? 0) + 1);
      const g = strict ? entered(c, d) : null;
      if (g !== null) outside.set(g, (outside.get(g) ?? 0) + 1);
    }
  }
  const droppable = (id: string) => {
    if (!alive.has(id) || pool.band(id) !== 'DISCRETIONARY' || (holders.get(id) ?? 0) > 0) return false;
    const g = strict ? requiredGroupOf(pool.get(id)) : null;
    return g === null || (outside.get(g) ?? 0) === 0;
  };
  const heap = new Heap<string>((a, b) => (position.get(a) as number) > (position.get(b) as number));
  for (const c of start) if (droppable(c.candidate_id)) heap.push(c.candidate_id);
  let items = start.reduce((sum, c) => sum + s.itemCost(pool.fact(c.candidate_id)), 0);
  const header = headerCost(request, policy);
  const cost = () => header + items + Math.max(0, alive.size - 1) * s.separator;
  const release = (v: ContextCandidate, d: string) => {
    holders.set(d, (holders.get(d) ?? 0) - 1);
    if (droppable(d)) heap.push(d);
    const g = strict ? entered(v, d) : null;
    if (g === null) return;
    const left = (outside.get(g) ?? 0) - 1;
    outside.set(g, left);
    if (left === 0)
      for (const m of pool.groups.get(g) ?? []) if (droppable(m.candidate_id)) heap.push(m.candidate_id);
  };
  while (cost() > request.usable_token_budget) {
    let id = heap.pop();
    while (id !== undefined && !droppable(id)) id = heap.pop();
    if (id === undefined) return null;
    const victims = victimsOf(s, pool.get(id), start, (m) => alive.has(m.candidate_id));
    for (const v of victims) {
      const released = depsOf(v);
      alive.delete(v.candidate_id);
      items -= s.itemCost(pool.fact(v.candidate_id));
      for (const d of released) release(v, d);
    }
    drop(s, victims);
  }
  return start.filter((c) => alive.has(c.candidate_id));
}
