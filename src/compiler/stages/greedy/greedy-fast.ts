/**
 * docs/compiler.md §10.6 with the reference's exact decisions but without its rescans (§18). The
 * reference rebuilds every unit and reprices every closure in every round; here a unit is
 * re-evaluated only when something it depends on changes (one of its closure nodes is admitted,
 * a content it touches is admitted, a key it holds is covered), with the same pricing and
 * blocking code. Rejections come due from three sets (blocked, adds nothing, over budget) and the
 * winner from a heap with lazy invalidation.
 */

import type { ContextCandidate, GreedyClass, RequirementClass } from '../../compiler-types.js';
import { Heap } from '../../heap.js';
import type { Fact } from '../../pool.js';
import type { CompileState } from '../../state.js';
import { blank, type Unit } from './unit.js';
import { buildIndex, type Index } from './watch.js';

/** A unit as it was when queued; stale once the unit's version moves on. */
interface Entry {
  readonly unit: Unit;
  readonly version: number;
  readonly cost: number;
  readonly relevance: number;
  readonly coverage: number;
  readonly first: string;
}

const rankBefore = (a: Entry, b: Entry): boolean => {
  if (a.relevance !== b.relevance) return a.relevance > b.relevance;
  if (a.coverage !== b.coverage) return a.coverage > b.coverage;
  if (a.cost !== b.cost) return a.cost < b.cost;
  return a.first < b.first;
};

export function greedyFast(s: CompileState, band: GreedyClass): void {
  new FastPass(s, band).run();
}

/** One band's pass. */
class FastPass {
  private readonly s: CompileState;
  private readonly band: RequirementClass;
  private readonly tag: string;
  private readonly threshold: number;
  /** The units this pass can ever see: units only disappear, never appear, while admitting. */
  private readonly units: Unit[] = [];
  private readonly ranks = new Heap<Entry>(rankBefore);
  private readonly costs = new Heap<Entry>((a, b) => a.cost > b.cost);
  private readonly due = new Set<Unit>();
  private index: Index | null = null;

  constructor(s: CompileState, band: GreedyClass) {
    this.s = s;
    this.band = band;
    this.tag = band === 'PREFERRED' ? 'preferred-greedy' : 'discretionary-greedy';
    this.threshold = s.pool.policy.min_discretionary_relevance;
    const seenGroups = new Set<string>();
    for (const f of s.pool.facts) {
      if (!this.passesFact(f)) continue;
      const c = f.c;
      const group = s.pool.groupMembers(c);
      if (group === null) this.units.push(blank(c.candidate_id, [c], f));
      else if (!seenGroups.has(c.group_id as string)) {
        seenGroups.add(c.group_id as string);
        this.units.push(blank(c.group_id as string, group, undefined));
      }
    }
  }

  private passesFact(f: Fact): boolean {
    return f.band === this.band && this.s.openFact(f) && this.s.selectable(f.c);
  }

  private passes(c: ContextCandidate): boolean {
    return this.passesFact(this.s.pool.fact(c.candidate_id));
  }

  run(): void {
    // The first round needs no heaps: with the budget fixed, whatever is too dear fails now, and
    // when the pass starts with little budget left that is most of it.
    for (const u of this.units) {
      this.evaluate(u, false);
      if (u.present && !this.due.has(u) && u.cost > this.s.remaining) this.due.add(u);
    }
    const first = this.units.filter((u) => u.present && !this.due.has(u)).map((u) => this.entryOf(u));
    this.ranks.pushAll(first);
    this.costs.pushAll(first);
    for (;;) {
      this.rejectDue();
      let best = this.ranks.pop();
      while (best !== undefined && !valid(best)) best = this.ranks.pop();
      if (best === undefined) return;
      this.admit(best.unit);
    }
  }

  /**
   * Everything that fails this round: blocked or adding nothing since its last change, or dearer
   * than what remains. Costs only fall and the budget only shrinks, so the costly ones sit at the
   * top of a max-heap.
   */
  private rejectDue(): void {
    const { s, costs, due } = this;
    for (
      let top = costs.peek();
      top !== undefined && (!valid(top) || top.cost > s.remaining);
      top = costs.peek()
    ) {
      costs.pop();
      if (valid(top)) due.add(top.unit);
    }
    for (const u of due) {
      const [decision, code, detail] =
        u.block !== ''
          ? (['REJECTED_DEPENDENCY', 'dependency-blocked', 'dependency ineligible or collides'] as const)
          : u.cost > s.remaining
            ? (['REJECTED_BUDGET', 'budget', 'unit exceeds remaining budget'] as const)
            : (['REJECTED_REDUNDANT', 'no-earn', 'below relevance threshold with no new coverage'] as const);
      for (const id of u.members) {
        const f = s.pool.fact(id);
        if (f.entry === undefined) s.rejectFact(f, decision, code, detail, u.cost);
      }
      u.present = false;
    }
    due.clear();
  }

  /** Commit the winner, then re-evaluate only the units its admission can have changed. */
  private admit(winner: Unit): void {
    const { s } = this;
    const priced = s.price(winner.members);
    const admitted = priced.nodes.map((n) => s.pool.get(n));
    const freshIdentities = new Set(
      admitted.map((c) => c.content_identity).filter((i) => !s.admittedIdentities.has(i)),
    );
    const freshKeys = new Set(admitted.flatMap((c) => c.coverage_keys).filter((k) => !s.covered.has(k)));
    // Rendered pricing charges no separator before the first item: every price rises once.
    const first = s.rendered && s.admitted.size === 0;
    s.commit(priced, this.tag, winner.members);
    winner.present = false;
    // Built after the first round's rejections, which often remove most units of a pass.
    this.index ??= buildIndex(
      s,
      this.units.filter((u) => u.present),
    );
    const { byNode, byIdentity, byKey } = this.index;
    const dirty = new Set<Unit>();
    for (const n of priced.nodes) for (const u of byNode.get(n) ?? []) dirty.add(u);
    for (const i of freshIdentities) for (const u of byIdentity.get(i) ?? []) dirty.add(u);
    for (const k of freshKeys) for (const u of byKey.get(k) ?? []) dirty.add(u);
    if (first) for (const u of this.units) dirty.add(u);
    for (const u of dirty) if (u.present) this.evaluate(u);
  }

  /**
   * A unit of one candidate with nothing in its closure: open means eligible, unadmitted and its
   * content free, so it costs its own count and nothing can block it.
   */
  private alone(u: Unit, only: Fact): void {
    const c = only.c;
    if (u.members.length !== 1 || u.members[0] !== c.candidate_id) u.members = [c.candidate_id];
    u.nodes = u.members;
    u.cost = this.s.singleCost(only);
    u.block = '';
    u.newCoverage = this.uncovered(c.coverage_keys);
    u.bestRelevance = c.relevance;
  }

  /** Reprice, re-block and re-rank a unit after a change it can see. */
  private evaluate(u: Unit, queue = true): void {
    const { s, due } = this;
    const { pool } = s;
    u.version++;
    due.delete(u);
    const lone = u.lone;
    if (lone !== undefined && lone.c.depends_on.length === 0) {
      u.present = this.passesFact(lone);
      if (!u.present) return;
      this.alone(u, lone);
      if (u.bestRelevance < this.threshold && u.newCoverage === 0) due.add(u);
      if (queue) this.enqueue(u);
      return;
    }
    const single = u.potential.length === 1 && pool.groupMembers(u.potential[0] as ContextCandidate) === null;
    const present = single
      ? this.passes(u.potential[0] as ContextCandidate)
      : u.potential.some((m) => this.passes(m));
    const members = single
      ? u.potential
      : pool.strict
        ? u.potential
        : u.potential.filter((m) => pool.band(m.candidate_id) === this.band && s.open(m));
    if (!present || members.length === 0) {
      u.present = false;
      return;
    }
    u.present = true;
    const only = members.length === 1 ? (members[0] as ContextCandidate) : null;
    if (only !== null && pool.unitClosure(only.candidate_id).length === 1) {
      this.alone(u, pool.fact(only.candidate_id));
    } else {
      u.members = members.map((m) => m.candidate_id);
      const priced = s.price(u.members);
      u.nodes = priced.nodes;
      u.cost = priced.cost;
      u.block = s.blockText(u.members, priced.nodes);
      u.newCoverage = this.uncovered(members.flatMap((m) => m.coverage_keys));
      u.bestRelevance = Math.max(...members.map((m) => m.relevance));
    }
    if (u.block !== '' || (u.bestRelevance < this.threshold && u.newCoverage === 0)) due.add(u);
    if (queue) this.enqueue(u);
  }

  private entryOf(u: Unit): Entry {
    return {
      unit: u,
      version: u.version,
      cost: u.cost,
      relevance: u.bestRelevance,
      coverage: u.newCoverage,
      first: u.members[0] as string,
    };
  }

  private enqueue(u: Unit): void {
    const entry = this.entryOf(u);
    this.ranks.push(entry);
    this.costs.push(entry);
  }

  /** Distinct keys not yet covered. */
  private uncovered(keys: readonly string[]): number {
    let n = 0;
    for (let k = 0; k < keys.length; k++) {
      const key = keys[k] as string;
      if (!this.s.covered.has(key) && keys.indexOf(key) === k) n++;
    }
    return n;
  }
}

const valid = (e: Entry) => e.unit.present && e.version === e.unit.version;
