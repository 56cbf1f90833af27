/**
 * The anytime answer's two halves, for a pool too large to prove at once (`pack`, MCP): a good
 * legal bundle found without search, and a bound on the best one that could exist, tight enough
 * that "within N% of the optimum" means something.
 *
 * Both read the pool as a multiple-choice knapsack: each content takes one form or none. Per
 * content, its forms as (cost, value) points and the empty choice at (0, 0) have an upper hull;
 * its steps, taken by value per token, are the greedy answer (whole steps while they fit) and the
 * linear relaxation's optimum (the last step in part), which bounds every legal bundle from above
 * (Sinha and Zoltners, 1979). The branch and bound's own root bound reads each content at its best
 * value for its cheapest form's cost, which for a file of outline and full text is loose by the
 * full text's price; this one is not.
 */
import type { Objective, StrategyInput } from '../../types.js';
import { legalityProblems, requiredContents } from '../legality.js';
import { EPSILON, objectiveOf } from '../objective.js';
import type { Found, Problem } from './problem.js';

/** One step up a content's hull: from its form `from` (null: none) to `to`. */
interface Step {
  readonly identity: string;
  readonly from: string | null;
  readonly to: string;
  readonly cost: number;
  readonly value: number;
}

/**
 * The steps of one content's upper hull over its forms, for `value`, the empty choice first; a
 * form dearer than `room` (what the budget leaves beside the required contents) could never be
 * in, and is no point of it.
 */
function hullSteps(problem: Problem, identity: string, value: (id: string) => number, room: number): Step[] {
  const points = problem
    .options(identity)
    .map((c) => ({
      id: c.candidate_id,
      cost: problem.itemCost(c.candidate_id) + problem.separator,
      value: value(c.candidate_id),
    }))
    .filter((p) => p.value > 0 && p.cost <= room)
    // Cheapest first; of equal cost the most valuable, then by id, so the hull is one.
    .sort((a, b) => a.cost - b.cost || b.value - a.value || (a.id < b.id ? -1 : 1));
  const steps: Step[] = [];
  let at: { id: string | null; cost: number; value: number } = { id: null, cost: 0, value: 0 };
  let rest = points;
  while (rest.length > 0) {
    // The next hull point: the steepest rise from here (of equal slope, the farther one).
    let best: (typeof points)[number] | null = null;
    let slope = 0;
    for (const p of rest) {
      if (p.value <= at.value) continue;
      const s = (p.value - at.value) / Math.max(p.cost - at.cost, EPSILON);
      if (best === null || s > slope + EPSILON || (Math.abs(s - slope) <= EPSILON && p.cost > best.cost)) {
        best = p;
        slope = s;
      }
    }
    if (best === null) break;
    steps.push({
      identity,
      from: at.id,
      to: best.id,
      cost: best.cost - at.cost,
      value: best.value - at.value,
    });
    at = best;
    rest = rest.filter((p) => p.cost > at.cost);
  }
  return steps;
}

/** Every optional content's hull steps, steepest first (ties by content, then form). */
function stepsByRatio(
  problem: Problem,
  optional: readonly string[],
  value: (id: string) => number,
  room = Number.POSITIVE_INFINITY,
): Step[] {
  const ratio = (s: Step) => s.value / Math.max(s.cost, EPSILON);
  return optional
    .flatMap((i) => hullSteps(problem, i, value, room))
    .sort(
      (a, b) =>
        ratio(b) - ratio(a) || (a.identity < b.identity ? -1 : a.identity > b.identity ? 1 : a.cost - b.cost),
    );
}

const valuesOf = (m: ReadonlyMap<string, number>) => (id: string) => m.get(id) ?? 0;

/** Upper bounds on a legal bundle's earned relevance: each level on its own, and both together. */
export interface HullBound {
  readonly preferred: number;
  readonly discretionary: number;
  /** PREFERRED and DISCRETIONARY earned together, the room spent once (below the two summed). */
  readonly earned: number;
}

/**
 * Upper bounds on any legal bundle's earned PREFERRED and DISCRETIONARY relevance: the required
 * contents at their best value for their cheapest form's cost, and the hull's linear relaxation
 * over the rest. Dependencies and groups are left out, which only loosens them. Null when the
 * required contents alone cannot fit.
 */
export function hullBound(problem: Problem): HullBound | null {
  const required = new Set(requiredContents(problem.input));
  let cost = problem.header - problem.separator;
  const free = { preferred: 0, discretionary: 0 };
  for (const identity of required) {
    const opts = problem.options(identity);
    if (opts.length === 0) return null;
    cost += Math.min(...opts.map((c) => problem.itemCost(c.candidate_id))) + problem.separator;
    free.preferred += Math.max(0, ...opts.map((c) => problem.valueP.get(c.candidate_id) ?? 0));
    free.discretionary += Math.max(0, ...opts.map((c) => problem.valueD.get(c.candidate_id) ?? 0));
  }
  // The first member pays no separator: credited once, above.
  const room = problem.input.budget - Math.max(cost, problem.header);
  if (room < 0) return null;
  const optional = [...problem.byIdentity.keys()].filter((i) => !required.has(i));
  const relaxed = (value: (id: string) => number) => {
    let left = room + (required.size === 0 ? problem.separator : 0);
    let total = 0;
    for (const s of stepsByRatio(problem, optional, value, left)) {
      if (left <= 0) break;
      const part = Math.min(1, left / Math.max(s.cost, EPSILON));
      total += s.value * part;
      left -= s.cost * part;
    }
    return total;
  };
  return {
    preferred: free.preferred + relaxed(valuesOf(problem.valueP)),
    discretionary: free.discretionary + relaxed(valuesOf(problem.valueD)),
    earned:
      free.preferred +
      free.discretionary +
      relaxed((id) => (problem.valueP.get(id) ?? 0) + (problem.valueD.get(id) ?? 0)),
  };
}

/** The greedy's steps: the optional contents' hull steps by PREFERRED value per token, then DISCRETIONARY. */
function greedySteps(problem: Problem): Step[] {
  const required = new Set(requiredContents(problem.input));
  const optional = [...problem.byIdentity.keys()].filter((i) => !required.has(i));
  return [
    ...stepsByRatio(problem, optional, valuesOf(problem.valueP)),
    ...stepsByRatio(problem, optional, valuesOf(problem.valueD)),
  ];
}

/**
 * A legal bundle by the hull's greedy: the required contents as `start` holds them (the planner's
 * forms and what they bring), then the rest by PREFERRED value per token, then by DISCRETIONARY
 * value per token, each step taken whole when it and what its form brings fit. A content that
 * another's form brought stays as it came. With `first`, that form is taken before any step.
 * Null when the result is not legal.
 */
export function hullGreedy(
  problem: Problem,
  start: readonly string[],
  first?: string,
  ordered: readonly Step[] = greedySteps(problem),
): Found | null {
  const input: StrategyInput = problem.input;
  const required = new Set(requiredContents(input));
  const identityOf = (id: string) => problem.lookup.get(id)?.content_identity as string;
  const chosen = new Map<string, string>();
  const locked = new Set<string>();
  let items = 0;
  const add = (id: string) => {
    chosen.set(identityOf(id), id);
    items += problem.itemCost(id);
  };
  for (const id of start)
    if (required.has(identityOf(id)))
      for (const n of problem.forced.get(id) ?? [id]) {
        if (chosen.has(identityOf(n))) continue;
        add(n);
        locked.add(identityOf(n));
      }
  const cost = () => problem.header + items + Math.max(0, chosen.size - 1) * problem.separator;
  const seed: Step[] =
    first === undefined ? [] : [{ identity: identityOf(first), from: null, to: first, cost: 0, value: 0 }];
  const steps = [...seed, ...ordered];
  for (const s of steps) {
    if (locked.has(s.identity) || (chosen.get(s.identity) ?? null) !== s.from) continue;
    // What the new form brings, beyond what is in: none of it may be another form of a content in.
    const brought = (problem.forced.get(s.to) ?? [s.to]).filter(
      (n) => n !== s.from && chosen.get(identityOf(n)) !== n,
    );
    if (brought.some((n) => n !== s.to && chosen.has(identityOf(n)))) continue;
    const before = s.from === null ? 0 : problem.itemCost(s.from);
    const more =
      brought.reduce((t, n) => t + problem.itemCost(n), 0) -
      before +
      (brought.length - (s.from === null ? 0 : 1)) * problem.separator;
    if (cost() + more > input.budget) continue;
    if (s.from !== null) {
      chosen.delete(s.identity);
      items -= before;
    }
    for (const n of brought) {
      add(n);
      if (n !== s.to) locked.add(identityOf(n));
    }
    // A form already in that this one needs must stay the form it is.
    for (const n of problem.forced.get(s.to) ?? []) if (n !== s.to) locked.add(identityOf(n));
  }
  const ids = [...chosen.values()].sort();
  if (legalityProblems(input, ids).length > 0) return null;
  const objective = objectiveOf(input, ids);
  return objective.rendered_cost <= input.budget ? { ids, objective } : null;
}

/** Forms the greedy is also started from, besides none: the most valuable that fit. */
const SEEDS = 5;

/**
 * The greedy bundles worth offering a search: the hull's greedy, and the same started from each
 * of the SEEDS most valuable optional forms that fit alone (PREFERRED value, then DISCRETIONARY,
 * then id). Taking by value per token alone can leave out one large file worth more than the
 * many small ones that fill its room; started from it, the greedy finds that bundle (the classic
 * repair of the knapsack's greedy, which alone can be arbitrarily far from the optimum).
 */
export function hullGreedies(problem: Problem, start: readonly string[]): Found[] {
  const required = new Set(requiredContents(problem.input));
  const value = (id: string) => [problem.valueP.get(id) ?? 0, problem.valueD.get(id) ?? 0] as const;
  const seeds = [...problem.byIdentity.keys()]
    .filter((i) => !required.has(i))
    .flatMap((i) => problem.options(i))
    .map((c) => c.candidate_id)
    .filter((id) => (value(id)[0] > 0 || value(id)[1] > 0) && problem.itemCost(id) <= problem.input.budget)
    .sort((a, b) => value(b)[0] - value(a)[0] || value(b)[1] - value(a)[1] || (a < b ? -1 : 1))
    .slice(0, SEEDS);
  // The steps are the same for every start: sorted once.
  const ordered = greedySteps(problem);
  return [undefined, ...seeds].flatMap((first) => hullGreedy(problem, start, first, ordered) ?? []);
}

/**
 * How far `chosen` may be from the optimum, in percent: the share of `most` (a bound on what any
 * legal bundle earns, PREFERRED and DISCRETIONARY relevance together) that `chosen` does not earn.
 * So `chosen` earns at least (100 - N)% of what the optimum earns.
 */
export function withinPercent(chosen: Pick<Objective, 'preferred' | 'discretionary'>, most: number): number {
  const got = chosen.preferred + chosen.discretionary;
  return most > got + EPSILON ? Math.round(((most - got) / most) * 10_000) / 100 : 0;
}
