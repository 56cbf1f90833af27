/**
 * HiGHS (WebAssembly, MIT) as `exact` uses it: loaded once when the module loads, then every
 * solve is synchronous, single-threaded and bounded by node and iteration counts, never by a
 * clock, so the same model gives the same answer on every machine.
 */

import { createHash } from 'node:crypto';
import type { Highs, InitOptions } from 'highs';
import * as ns from 'highs';

type Loader = (options?: InitOptions) => Promise<Highs>;
// The package's typings describe a CommonJS module; at run time the loader may sit on `default`.
const mod = ns as unknown as { default?: Loader } & Loader;
const highs: Highs = await (mod.default ?? mod)();

/** Bounds on one solve: branch-and-bound nodes and simplex iterations. */
export interface SolveLimits {
  readonly nodes: number;
  readonly iterations: number;
}

export type LpOutcome =
  /** The model's optimum, proven; `values` maps every column to its value. */
  | { readonly status: 'optimal'; readonly objective: number; readonly values: ReadonlyMap<string, number> }
  | { readonly status: 'infeasible' }
  /** A limit stopped the solve: a feasible point when one was found, never a proof. */
  | { readonly status: 'limit'; readonly values: ReadonlyMap<string, number> | null };

/** How many solves a process remembers, the most recent kept. */
const REMEMBERED = 64;
const solved = new Map<string, { readonly limits: SolveLimits; readonly outcome: LpOutcome }>();

/**
 * Whether a solve that ended as `outcome` under `had` ends so under `limits`: HiGHS, on one thread
 * with a fixed seed, takes the same steps whatever its limits until one stops it, so a solve that
 * finished (optimal or infeasible) finishes alike under limits no smaller; one a limit stopped is
 * the same only under the very same limits.
 */
const holds = (had: SolveLimits, outcome: LpOutcome, limits: SolveLimits): boolean =>
  outcome.status === 'limit'
    ? had.nodes === limits.nodes && had.iterations === limits.iterations
    : had.nodes <= limits.nodes && had.iterations <= limits.iterations;

/**
 * Solve a model in CPLEX LP text. Options are fixed: no output, one thread, a fixed seed, no gap
 * tolerance (an optimum must be an optimum), presolve on. A model solved before in this process
 * is not solved again where its answer holds (`holds`): `compiler-v2`'s certificate and `exact`
 * solve the same programs for a cell, and a study asks both of one case in one process.
 */
export function solveLp(text: string, limits: SolveLimits): LpOutcome {
  const key = createHash('sha256').update(text).digest('base64');
  const had = solved.get(key);
  if (had !== undefined && holds(had.limits, had.outcome, limits)) return had.outcome;
  const outcome = solveOnce(text, limits);
  if (solved.size >= REMEMBERED) solved.delete(solved.keys().next().value as string);
  solved.set(key, { limits, outcome });
  return outcome;
}

function solveOnce(text: string, limits: SolveLimits): LpOutcome {
  const r = highs.solve(text, {
    output_flag: false,
    threads: 1,
    random_seed: 0,
    presolve: 'on',
    mip_rel_gap: 0,
    mip_abs_gap: 0,
    mip_max_nodes: limits.nodes,
    simplex_iteration_limit: limits.iterations,
  });
  // Every column is bounded, so "infeasible or unbounded" can only be infeasible.
  if (r.Status === 'Infeasible' || r.Status === 'Primal infeasible or unbounded')
    return { status: 'infeasible' };
  const values = new Map<string, number>();
  let found = true;
  for (const [name, column] of Object.entries(r.Columns)) {
    if (!('Primal' in column) || typeof column.Primal !== 'number') found = false;
    else values.set(name, column.Primal);
  }
  if (r.Status === 'Optimal') return { status: 'optimal', objective: r.ObjectiveValue, values };
  return { status: 'limit', values: found && values.size > 0 ? values : null };
}
