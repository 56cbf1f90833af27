/**
 * The working state of one compilation (docs/compiler.md §8): remaining budget, what is
 * admitted, the contents and coverage keys that covers, and the trace entries.
 */

import type { ContextCandidate, RequirementClass, TraceDecision } from './compiler-types.js';
import type { Content, Fact, Pool } from './pool.js';
import { headerCost, itemRenderCost, separatorCost } from './tokens.js';
import { traceEntry, type WorkingEntry } from './trace-entry.js';

export interface Priced {
  readonly cost: number;
  /** The not-yet-admitted closure nodes, first-seen order: what a commit would admit. */
  readonly nodes: readonly string[];
}

/** The trace entries, kept on the pool's facts (one per candidate, a later write replacing). */
class EntryTable {
  private readonly pool: Pool;
  constructor(pool: Pool) {
    this.pool = pool;
  }
  has(id: string): boolean {
    return this.pool.fact(id).entry !== undefined;
  }
  get(id: string): WorkingEntry | undefined {
    return this.pool.fact(id).entry;
  }
  set(id: string, entry: WorkingEntry): void {
    this.pool.fact(id).entry = entry;
  }
}

/** Which contents have an admitted form, kept on the pool's content records. */
class IdentityTable {
  private readonly pool: Pool;
  private readonly marked: Content[] = [];
  constructor(pool: Pool) {
    this.pool = pool;
  }
  has(name: string): boolean {
    return this.pool.contents.get(name)?.admitted ?? false;
  }
  add(name: string): void {
    const content = this.pool.contents.get(name);
    if (content === undefined || content.admitted) return;
    content.admitted = true;
    this.marked.push(content);
  }
  clear(): void {
    for (const content of this.marked) content.admitted = false;
    this.marked.length = 0;
  }
}

/**
 * The working state of one compilation: remaining budget, what is admitted, which contents and
 * coverage keys that covers, and one trace entry per candidate (a later write replaces an
 * earlier one, which is how a rejected dependency can be revived by a later unit).
 */
export class CompileState {
  remaining: number;
  readonly admitted = new Set<string>();
  readonly admittedIdentities: IdentityTable;
  readonly covered = new Set<string>();
  readonly entries: EntryTable;

  readonly pool: Pool;

  /** Admission charges rendered increments (docs/compiler.md §17.5), not declared counts. */
  readonly rendered: boolean;
  /** What a separator costs under the policy's overhead tokenizer. */
  readonly separator: number;

  constructor(pool: Pool) {
    this.pool = pool;
    this.entries = new EntryTable(pool);
    this.admittedIdentities = new IdentityTable(pool);
    this.rendered = pool.policy.pricing === 'rendered';
    this.separator = separatorCost(pool.policy);
    // Rendered pricing charges the frame before anything is admitted: what remains is real.
    this.remaining =
      pool.request.usable_token_budget - (this.rendered ? headerCost(pool.request, pool.policy) : 0);
  }

  /**
   * What one node adds when admitted: its declared count, or, rendered, its item cost and the
   * separator before it (none before the bundle's first item).
   */
  private nodeCost(f: Fact, first: boolean): number {
    if (!this.rendered) return f.c.token_count;
    return this.itemCost(f) + (first ? 0 : this.separator);
  }

  /** A candidate's rendered item cost (docs/compiler.md §3), priced once and kept on its fact. */
  itemCost(f: Fact): number {
    f.itemCost ??= itemRenderCost(f.c, this.pool.policy);
    return f.itemCost;
  }

  /** What admitting this one candidate alone would charge, nothing else of its closure considered. */
  singleCost(f: Fact): number {
    return this.nodeCost(f, this.admitted.size === 0);
  }

  get used(): number {
    return this.pool.request.usable_token_budget - this.remaining;
  }

  /**
   * Marginal cost of admitting `roots` (docs/compiler.md §8.2): what every closure node not yet
   * admitted adds, each once. A dependency already admitted is free, so shared ones are paid once.
   */
  price(roots: readonly string[]): Priced {
    const nodes: string[] = [];
    const seen = new Set<string>();
    let cost = 0;
    for (const root of roots) {
      for (const id of this.pool.unitClosure(root)) {
        if (this.admitted.has(id) || seen.has(id)) continue;
        seen.add(id);
        cost += this.nodeCost(this.pool.fact(id), this.admitted.size === 0 && nodes.length === 0);
        nodes.push(id);
      }
    }
    return { cost, nodes };
  }

  /** Why a unit cannot be admitted whatever the budget, or '' when it can (docs/compiler.md §8.3). */
  blockText(members: readonly string[], nodes: readonly string[]): string {
    const isMember = new Set(members);
    const strict = this.pool.strict;
    const identitiesInUnit = new Set<string>();
    for (const id of nodes) {
      const c = this.pool.get(id);
      const verdict = this.pool.verdict(id);
      if (verdict.code !== 'eligible') return `dependency-ineligible:${id}(${verdict.code})`;
      const collides = this.admittedIdentities.has(c.content_identity);
      if (collides && !isMember.has(id)) return `alternative-collision:${id}`;
      // The reference stops here; refuse mode also refuses the holes a validator would flag.
      if (strict && (collides || identitiesInUnit.has(c.content_identity)))
        return `alternative-collision:${id}`;
      if (strict && !this.selectable(c)) return `named-form-required:${id}`;
      identitiesInUnit.add(c.content_identity);
    }
    return '';
  }

  /** In refuse mode, a content named by `required_ids` may only be admitted in a named form. */
  selectable(c: ContextCandidate): boolean {
    if (!this.pool.strict || this.pool.namedByIdentity.size === 0) return true;
    const named = this.pool.namedByIdentity.get(c.content_identity);
    return named === undefined || named.includes(c.candidate_id);
  }

  /** Any decision but an admission: recorded at the budget of the moment, which it leaves alone. */
  reject(c: ContextCandidate, decision: TraceDecision, code: string, detail: string, marginal: number): void {
    this.rejectFact(this.pool.fact(c.candidate_id), decision, code, detail, marginal);
  }

  rejectFact(f: Fact, decision: TraceDecision, code: string, detail: string, marginal: number): void {
    f.entry = traceEntry(f.c, {
      decision,
      reason_code: code,
      reason_detail: detail,
      priority_band: f.band,
      marginal_cost: marginal,
      dependency_closure: this.pool.dependenciesOf(f),
      pulled_in_by: [],
      budget_before: this.remaining,
      budget_after: this.remaining,
      position: null,
    });
  }

  /**
   * Admit a priced unit: the budget drops once by the whole cost, and every node records the
   * same before/after. A node that is not a root names the roots whose closure brought it.
   */
  commit(priced: Priced, detail: string, roots: readonly string[]): void {
    const before = this.remaining;
    this.remaining -= priced.cost;
    const rootSet = new Set(roots);
    for (const id of [...priced.nodes].sort()) {
      const c = this.pool.get(id);
      const marginal = this.nodeCost(this.pool.fact(id), this.admitted.size === 0);
      this.admitted.add(id);
      this.admittedIdentities.add(c.content_identity);
      for (const key of c.coverage_keys) this.covered.add(key);
      const pulledInBy = rootSet.has(id)
        ? []
        : [...rootSet].filter((r) => this.pool.unitClosure(r).includes(id)).sort();
      this.entries.set(
        id,
        traceEntry(c, {
          decision: 'ADMITTED',
          reason_code: 'admitted',
          reason_detail: detail,
          priority_band: this.pool.band(id),
          marginal_cost: marginal,
          dependency_closure: this.pool.dependencies(id),
          pulled_in_by: pulledInBy,
          budget_before: before,
          budget_after: this.remaining,
          position: null,
        }),
      );
    }
  }

  /** Still open for admission: no entry yet, hard-eligible, and its content not yet admitted. */
  open(c: ContextCandidate): boolean {
    return this.openFact(this.pool.fact(c.candidate_id));
  }

  openFact(f: Fact): boolean {
    return f.eligible && f.entry === undefined && !f.content.admitted;
  }

  /**
   * The admission units of one band, fresh on every call: singles, and required groups once each
   * (first-encountered id order). The reference filters a group down to its open members; refuse
   * mode keeps the whole group so that a member that cannot come blocks the unit instead.
   */
  bandUnits(band: RequirementClass): ContextCandidate[][] {
    const units: ContextCandidate[][] = [];
    const seenGroups = new Set<string>();
    for (const f of this.pool.facts) {
      const c = f.c;
      if (f.band !== band || !this.openFact(f) || !this.selectable(c)) continue;
      const members = this.pool.groupMembers(c);
      if (members === null) {
        units.push([c]);
        continue;
      }
      const g = c.group_id as string;
      if (seenGroups.has(g)) continue;
      seenGroups.add(g);
      const unit = this.pool.strict
        ? [...members]
        : members.filter((m) => this.pool.band(m.candidate_id) === band && this.open(m));
      if (unit.length > 0) units.push(unit);
    }
    return units;
  }
}
