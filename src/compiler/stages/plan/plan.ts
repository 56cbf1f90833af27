/**
 * A plan of what MANDATORY and REQUIRED content takes before anything is admitted
 * (docs/compiler.md §17.5): a set of nodes, each held by the demands whose chosen closure brings
 * it, priced as admission would price it. Nothing here writes the trace.
 */
import type { CompileState } from '../../state.js';

/** One way to meet a demand: the roots admitted and the closure they bring. */
export interface Option {
  readonly roots: readonly string[];
  readonly closure: readonly string[];
}

export class Plan {
  /** Node -> how many chosen closures bring it. */
  private holders = new Map<string, number>();
  /** Content -> the node that holds it. */
  private contents = new Map<string, string>();
  /** What the held nodes cost, each as admission would charge it (the first separator aside). */
  cost = 0;
  private readonly s: CompileState;

  constructor(s: CompileState) {
    this.s = s;
  }

  nodeCost(id: string): number {
    const f = this.s.pool.fact(id);
    return this.s.rendered ? this.s.itemCost(f) + this.s.separator : f.c.token_count;
  }

  holds(id: string): boolean {
    return this.holders.has(id);
  }

  get size(): number {
    return this.holders.size;
  }

  /** The node holding a content, if any. */
  holderOf(content: string): string | undefined {
    return this.contents.get(content);
  }

  /** Why this closure cannot join the plan as it stands, or '' when it can. */
  conflict(closure: readonly string[]): string {
    const { pool } = this.s;
    const seen = new Map<string, string>();
    for (const id of closure) {
      const c = pool.get(id);
      const verdict = pool.verdict(id);
      if (verdict.code !== 'eligible') return `dependency-ineligible:${id}(${verdict.code})`;
      if (!this.s.selectable(c)) return `named-form-required:${id}`;
      const held = this.contents.get(c.content_identity);
      const twin = seen.get(c.content_identity);
      if ((held !== undefined && held !== id) || (twin !== undefined && twin !== id))
        return `alternative-collision:${id}`;
      seen.set(c.content_identity, id);
    }
    return '';
  }

  /** What joining the plan would add. */
  addCost(closure: readonly string[]): number {
    let cost = 0;
    for (const id of new Set(closure)) if (!this.holders.has(id)) cost += this.nodeCost(id);
    return cost;
  }

  add(closure: readonly string[]): void {
    for (const id of new Set(closure)) {
      const n = this.holders.get(id) ?? 0;
      this.holders.set(id, n + 1);
      if (n > 0) continue;
      this.cost += this.nodeCost(id);
      this.contents.set(this.s.pool.get(id).content_identity, id);
    }
  }

  remove(closure: readonly string[]): void {
    for (const id of new Set(closure)) {
      const n = (this.holders.get(id) ?? 0) - 1;
      if (n > 0) {
        this.holders.set(id, n);
        continue;
      }
      this.holders.delete(id);
      this.cost -= this.nodeCost(id);
      this.contents.delete(this.s.pool.get(id).content_identity);
    }
  }

  /** What leaving the plan would free: the closure's nodes nothing else holds. */
  freeCost(closure: readonly string[]): number {
    let cost = 0;
    for (const id of new Set(closure)) if (this.holders.get(id) === 1) cost += this.nodeCost(id);
    return cost;
  }

  snapshot(): () => void {
    const holders = new Map(this.holders);
    const contents = new Map(this.contents);
    const cost = this.cost;
    return () => {
      this.holders = holders;
      this.contents = contents;
      this.cost = cost;
    };
  }
}
