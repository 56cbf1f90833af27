/**
 * The dependency walk (docs/compiler.md §8.1): depth-first pre-order from `start` along the edges
 * in listed order, each node once, so cycles terminate; the list starts with `start`. Iterative, so
 * a long chain cannot overflow the stack.
 */
export function walkClosure(start: string, edgesOf: (id: string) => readonly string[]): string[] {
  const first = edgesOf(start);
  if (first.length === 0) return [start];
  const out: string[] = [start];
  const seen = new Set<string>(out);
  const stack = [{ next: 0, edges: first }];
  while (stack.length > 0) {
    const top = stack[stack.length - 1] as (typeof stack)[number];
    if (top.next >= top.edges.length) {
      stack.pop();
      continue;
    }
    const dep = top.edges[top.next++] as string;
    if (seen.has(dep)) continue;
    seen.add(dep);
    out.push(dep);
    stack.push({ next: 0, edges: edgesOf(dep) });
  }
  return out;
}

/** A candidate's dependency closure (itself first), over a lookup of candidates by id. */
export const dependencyClosure = (
  start: string,
  byId: ReadonlyMap<string, { readonly depends_on: readonly string[] }>,
): string[] => walkClosure(start, (id) => byId.get(id)?.depends_on ?? []);
