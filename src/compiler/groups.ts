/** All-or-none groups (docs/compiler.md §9). */
import type { ContextCandidate } from './compiler-types.js';

/** A required (all-or-none) group: a non-empty `group_id` with `group_required`. */
export const requiredGroupOf = (c: ContextCandidate): string | null =>
  c.group_id && c.group_required ? c.group_id : null;

/** Every required group's members, in the order given. */
export function requiredGroups<C extends ContextCandidate>(candidates: readonly C[]): Map<string, C[]> {
  const groups = new Map<string, C[]>();
  for (const c of candidates) {
    const g = requiredGroupOf(c);
    if (g === null) continue;
    const list = groups.get(g);
    if (list === undefined) groups.set(g, [c]);
    else list.push(c);
  }
  return groups;
}
