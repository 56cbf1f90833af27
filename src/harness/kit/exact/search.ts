/**
 * Branch and bound over content identities for `exact`: which form of each content, or none.
 * Choosing a form brings its forced set, so every leaf is closed under dependencies and groups
 * by construction. Bounded by a node count, never a clock: the same answer on every machine.
 */
import type { ContextCandidate } from '../../../compiler/index.js';
import { EPSILON, objectiveOf } from '../objective.js';
import { beats, type Found, type Problem, type SearchGoal } from './problem.js';

type Ahead = { readonly costLB: number; readonly freeP: number; readonly freeD: number };
export type Bound = { readonly preferred: number; readonly discretionary: number };

/** One depth-first search; state is mutated and undone on the way back, so a node costs its bound. */
export class Search {
  nodes = 0;
  aborted = false;
  best: Found | null = null;
  private readonly chosen = new Set<string>();
  private readonly decided = new Map<string, string | null>();
  private items = 0;
  /** How many chosen candidates hold each coverage key: uniqueness decides who earns. */
  private readonly holders = new Map<string, number>();
  private readonly threshold: number;
  private readonly order: readonly string[];
  private readonly ratioP: readonly string[];
  private readonly ratioD: readonly string[];
  private readonly minItem = new Map<string, number>();
  private readonly maxP = new Map<string, number>();
  private readonly maxD = new Map<string, number>();

  private readonly problem: Problem;
  private readonly goal: SearchGoal;
  private readonly nodeLimit: number;

  constructor(problem: Problem, goal: SearchGoal, nodeLimit: number) {
    this.problem = problem;
    this.goal = goal;
    this.nodeLimit = nodeLimit;
    this.threshold = problem.input.policy.min_discretionary_relevance;
    const valuable = (identity: string) =>
      problem.options(identity).some((c) => this.value(c.candidate_id) > 0);
    for (const identity of problem.byIdentity.keys()) {
      const opts = problem.options(identity);
      this.minItem.set(identity, Math.min(...opts.map((c) => problem.itemCost(c.candidate_id))));
      this.maxP.set(identity, Math.max(0, ...opts.map((c) => problem.valueP.get(c.candidate_id) ?? 0)));
      this.maxD.set(identity, Math.max(0, ...opts.map((c) => problem.valueD.get(c.candidate_id) ?? 0)));
    }
    const required = [...goal.required].sort(
      (a, b) => problem.options(a).length - problem.options(b).length || (a < b ? -1 : 1),
    );
    // Contents that can add no value are never worth choosing for their own sake: they enter
    // only when a chosen form forces them, so they are not branched on at all.
    const optional =
      goal.mode === 'optimise'
        ? [...problem.byIdentity.keys()].filter((i) => !goal.required.has(i) && valuable(i))
        : [];
    const ratio = (m: Map<string, number>) => (i: string) =>
      (m.get(i) ?? 0) / ((this.minItem.get(i) ?? 1) + problem.separator);
    const byRatio = (m: Map<string, number>) =>
      [...optional].sort((a, b) => ratio(m)(b) - ratio(m)(a) || (a < b ? -1 : 1));
    this.ratioP = byRatio(this.maxP);
    this.ratioD = byRatio(this.maxD);
    // Branch in the order of the bound: PREFERRED value first, then DISCRETIONARY value, each by
    // value per token, so the first descent is the greedy answer and the knapsack bound bites.
    const withP = this.ratioP.filter((i) => (this.maxP.get(i) ?? 0) > 0);
    const onlyD = this.ratioD.filter((i) => (this.maxP.get(i) ?? 0) <= 0);
    this.order = [...required, ...withP, ...onlyD];
  }

  private value(id: string): number {
    return (this.problem.valueP.get(id) ?? 0) + (this.problem.valueD.get(id) ?? 0);
  }

  private cost(extraItems = 0, extraCount = 0): number {
    const n = this.chosen.size + extraCount;
    return this.problem.header + this.items + extraItems + Math.max(0, n - 1) * this.problem.separator;
  }

  /** Seed the search with a known legal bundle, so pruning starts at once. */
  offer(found: Found): void {
    if (this.better(found)) this.best = found;
  }

  private better(f: Found): boolean {
    return beats(this.goal.mode, f, this.best);
  }

  run(): void {
    this.visit(0);
  }

  private visit(k: number): void {
    if (this.aborted) return;
    if (++this.nodes > this.nodeLimit) {
      this.aborted = true;
      return;
    }
    let next = k;
    while (next < this.order.length && this.decided.has(this.order[next] as string)) next++;
    if (this.pruned(next)) return;
    if (next === this.order.length) {
      this.leaf();
      return;
    }
    const identity = this.order[next] as string;
    const worthless =
      this.goal.mode === 'optimise' &&
      !this.goal.required.has(identity) &&
      this.reachable(identity, this.maxP, this.problem.valueP) +
        this.reachable(identity, this.maxD, this.problem.valueD) ===
        0;
    // Taking content that can no longer earn only adds cost: its one sensible choice is none.
    const options = worthless
      ? []
      : [...this.problem.options(identity)].sort(
          (a, b) =>
            this.value(b.candidate_id) - this.value(a.candidate_id) ||
            this.problem.itemCost(a.candidate_id) - this.problem.itemCost(b.candidate_id) ||
            (a.candidate_id < b.candidate_id ? -1 : 1),
        );
    for (const form of options) {
      const added = this.apply(form.candidate_id);
      if (added === null) continue;
      this.visit(next + 1);
      this.undo(added);
      if (this.aborted) return;
    }
    if (!this.goal.required.has(identity)) {
      this.decided.set(identity, null);
      this.visit(next + 1);
      this.decided.delete(identity);
    }
  }

  /** Add a form's forced set, or null when it conflicts with what is decided. */
  private apply(id: string): string[] | null {
    const forced = this.problem.forced.get(id) as readonly string[];
    const added: string[] = [];
    for (const n of forced) {
      if (this.chosen.has(n)) continue;
      const identity = (this.problem.lookup.get(n) as ContextCandidate).content_identity;
      if (this.decided.has(identity)) {
        this.undo(added);
        return null;
      }
      this.chosen.add(n);
      this.decided.set(identity, n);
      this.items += this.problem.itemCost(n);
      for (const k of this.keysOf(n)) this.holders.set(k, (this.holders.get(k) ?? 0) + 1);
      added.push(n);
    }
    return added;
  }

  private undo(added: readonly string[]): void {
    for (const n of added) {
      this.chosen.delete(n);
      this.decided.delete((this.problem.lookup.get(n) as ContextCandidate).content_identity);
      this.items -= this.problem.itemCost(n);
      for (const k of this.keysOf(n)) this.holders.set(k, (this.holders.get(k) ?? 0) - 1);
    }
  }

  private keysOf(id: string): readonly string[] {
    return [...new Set((this.problem.lookup.get(id) as ContextCandidate).coverage_keys)];
  }

  /**
   * Can this candidate still earn? Through its relevance always; through coverage only while one
   * of its keys is held by nobody else. Adding members only takes uniqueness away, so the answer
   * for the current set bounds every completion of it.
   */
  private canEarn(id: string): boolean {
    const c = this.problem.lookup.get(id) as ContextCandidate;
    if (c.relevance >= this.threshold) return true;
    const own = this.chosen.has(id) ? 1 : 0;
    return c.coverage_keys.some((k) => (this.holders.get(k) ?? 0) === own);
  }

  /** An identity's best value still reachable (the static best while any form can earn, else 0). */
  private reachable(
    identity: string,
    best: ReadonlyMap<string, number>,
    values: ReadonlyMap<string, number>,
  ): number {
    const top = best.get(identity) ?? 0;
    if (top <= 0) return 0;
    return this.problem
      .options(identity)
      .some((f) => (values.get(f.candidate_id) ?? 0) > 0 && this.canEarn(f.candidate_id))
      ? top
      : 0;
  }

  /** The undecided required contents' least cost and what they may earn; null when one has no form left. */
  private ahead(from: number): Ahead | null {
    let minItems = 0;
    let requiredLeft = 0;
    let freeP = 0;
    let freeD = 0;
    for (let j = from; j < this.order.length; j++) {
      const identity = this.order[j] as string;
      if (this.decided.has(identity) || !this.goal.required.has(identity)) continue;
      if (this.problem.options(identity).length === 0) return null;
      minItems += this.minItem.get(identity) ?? 0;
      requiredLeft++;
      freeP += this.reachable(identity, this.maxP, this.problem.valueP);
      freeD += this.reachable(identity, this.maxD, this.problem.valueD);
    }
    return { costLB: this.cost(minItems, requiredLeft), freeP, freeD };
  }

  /**
   * Upper bounds on any legal bundle's earned PREFERRED and DISCRETIONARY relevance: the root's
   * relaxation (cheapest forms, dependencies free, fractional knapsack); null when nothing fits.
   */
  rootBound(): Bound | null {
    const a = this.ahead(0);
    if (a === null || a.costLB > this.goal.budget) return null;
    const room = this.goal.budget - a.costLB;
    return {
      preferred: this.upperBound(this.ratioP, this.maxP, this.problem.valueP, a.freeP, room),
      discretionary: this.upperBound(this.ratioD, this.maxD, this.problem.valueD, a.freeD, room),
    };
  }

  private pruned(from: number): boolean {
    const a = this.ahead(from);
    if (a === null || a.costLB > this.goal.budget) return true;
    const { costLB, freeP, freeD } = a;
    const best = this.best;
    if (best === null) return false;
    if (this.goal.mode === 'min-cost') return costLB >= best.objective.rendered_cost;
    const room = this.goal.budget - costLB;
    const upP = this.upperBound(this.ratioP, this.maxP, this.problem.valueP, freeP, room);
    if (upP < best.objective.preferred - EPSILON) return true;
    if (upP > best.objective.preferred + EPSILON) return false;
    const upD = this.upperBound(this.ratioD, this.maxD, this.problem.valueD, freeD, room);
    if (upD < best.objective.discretionary - EPSILON) return true;
    if (upD > best.objective.discretionary + EPSILON) return false;
    return costLB > best.objective.rendered_cost;
  }

  /** What is chosen and still earns, what costs nothing more, and the knapsack over the rest. */
  private upperBound(
    byRatio: readonly string[],
    best: ReadonlyMap<string, number>,
    values: ReadonlyMap<string, number>,
    free: number,
    room: number,
  ): number {
    let earned = 0;
    for (const id of this.chosen) if (this.canEarn(id)) earned += values.get(id) ?? 0;
    return earned + free + this.knapsack(byRatio, best, values, room);
  }

  /**
   * Fractional knapsack over the undecided optional contents, in the static ratio order: an
   * upper bound on what they can add. A content that can no longer earn drops out, which keeps
   * the order valid for the rest.
   */
  private knapsack(
    byRatio: readonly string[],
    best: ReadonlyMap<string, number>,
    values: ReadonlyMap<string, number>,
    room: number,
  ): number {
    let left = room;
    let total = 0;
    for (const identity of byRatio) {
      if (left <= 0) break;
      if (this.decided.has(identity)) continue;
      const v = this.reachable(identity, best, values);
      if (v <= 0) continue;
      const w = (this.minItem.get(identity) ?? 0) + this.problem.separator;
      if (w <= left) {
        total += v;
        left -= w;
      } else {
        total += (v * left) / w;
        left = 0;
      }
    }
    return total;
  }

  private leaf(): void {
    const ids = [...this.chosen].sort();
    const objective =
      this.goal.mode === 'min-cost'
        ? { preferred: 0, discretionary: 0, rendered_cost: this.cost() }
        : objectiveOf(this.problem.input, ids);
    if (objective.rendered_cost > this.goal.budget) return;
    const found = { ids, objective };
    if (this.better(found)) this.best = found;
  }
}
