/**
 * Closeness in the import graph to what the issue points at (issue 49): a personalised PageRank
 * seeded by the files the task names. The graph is the one ingest resolves already (each file's
 * imports, both ways); the walk is a plain power iteration here rather than graphology's, since
 * pool files are built synchronously and the graph is small (a tree's files).
 */

/**
 * A personalised PageRank over an undirected graph (each path's neighbours), seeded uniformly by
 * `seeds`: a fixed number of power steps from the seeds, so the same graph gives the same bits.
 * A node without neighbours sends its walk back to the seeds. Empty when there is no seed.
 */
export function seededRank(
  near: ReadonlyMap<string, ReadonlySet<string>>,
  seeds: ReadonlySet<string>,
  alpha = 0.85,
  steps = 30,
): Map<string, number> {
  const out = new Map<string, number>();
  if (seeds.size === 0) return out;
  const nodes = [...near.keys()].sort();
  const at = new Map(nodes.map((n, i) => [n, i]));
  const links = nodes.map((n) =>
    [...(near.get(n) ?? [])].map((m) => at.get(m)).filter((i) => i !== undefined),
  );
  const s = new Float64Array(nodes.length);
  const seeded = nodes.filter((n) => seeds.has(n));
  if (seeded.length === 0) return out;
  for (const n of seeded) s[at.get(n) as number] = 1 / seeded.length;
  let r = Float64Array.from(s);
  for (let k = 0; k < steps; k++) {
    const next = new Float64Array(nodes.length);
    let lost = 0;
    for (let i = 0; i < nodes.length; i++) {
      const l = links[i] as number[];
      const v = r[i] as number;
      if (l.length === 0) lost += v;
      else for (const j of l) next[j] = (next[j] as number) + (alpha * v) / l.length;
    }
    const back = (1 - alpha) * (1 - lost) + lost;
    for (let i = 0; i < nodes.length; i++) next[i] = (next[i] as number) + back * (s[i] as number);
    r = next;
  }
  for (let i = 0; i < nodes.length; i++) out.set(nodes[i] as string, r[i] as number);
  return out;
}
