/**
 * How a compilation's output object is told: `compile`'s JSON, the warning for one that fails its
 * own validation, and a line for a reader (the MCP server's).
 */
import { jsonText } from '../output/index.js';
import type { Compiled } from './compile-session.js';

/** Indented for people; past a thousand candidates, compact (pipe through `jq` to read it). */
export const compiledJSON = (out: Compiled, candidates: number): string =>
  candidates > 1000 ? `${JSON.stringify(out)}\n` : jsonText(out);

/**
 * The lines that say a compilation fails its own validation, one per problem (for a batch line,
 * `where`, one line for all of its problems); none when it passes or gave no compilation.
 */
export function invalidLines(out: Compiled, strategy: string, where?: string): string[] {
  if ('error' in out || out.validation.valid) return [];
  const head = `ctxbench: warning: ${where === undefined ? '' : `${where}: `}${strategy}'s compilation fails validation`;
  return where === undefined
    ? out.validation.problems.map((p) => `${head}: ${p}\n`)
    : [`${head}: ${out.validation.problems.join('; ')}\n`];
}

/** What a compilation came to, in a line: the outcome, and the trace's decisions counted. */
/** The distance from the optimum a strategy gave (`extras.within_percent`), if it gave one. */
export function withinOf(extras: Readonly<Record<string, unknown>> | undefined): number | undefined {
  const w = extras?.within_percent;
  return typeof w === 'number' && Number.isFinite(w) ? w : undefined;
}

export function compiledSummary(out: Exclude<Compiled, { error: string }>): string {
  const result = out.result as {
    failure?: { reason?: string } | null;
    trace?: { entries?: { decision?: string }[] };
  };
  const counts = new Map<string, number>();
  for (const e of result.trace?.entries ?? [])
    counts.set(String(e.decision), (counts.get(String(e.decision)) ?? 0) + 1);
  const decisions = [...counts].map(([d, n]) => `${n} ${d}`).join(', ');
  const outcome =
    out.bundle === null
      ? `refused: ${result.failure?.reason ?? 'no reason'}`
      : `a bundle of ${(out.bundle as { items: unknown[] }).items.length} items`;
  const within = withinOf(out.extras);
  const distance = within === undefined ? '' : `, within ${within}% of the optimum`;
  return `${outcome}${distance}; trace: ${decisions || 'no entries'}`;
}
