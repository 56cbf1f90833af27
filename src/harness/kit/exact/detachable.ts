/**
 * What the levels of `exact`'s objective can skip, from one fact. Take a candidate out of a legal
 * bundle together with its unit (its group, everything that depends on any of them, their groups,
 * and so on): what is left is legal, its earnings are no lower at any level the unit earns nothing
 * at (another's key can only come to be held alone), and its rendered cost is lower by at least
 * the candidate's item. So an optimal bundle holds no candidate whose unit earns nothing at a level
 * it could lose; and when no candidate earning discretionary relevance fits beside the cheapest
 * bundle holding the preferred optimum, the discretionary optimum is 0 without a solve.
 */
import { itemRenderCost, requiredGroupOf, requiredGroups } from '../../../compiler/index.js';
import type { BundleModel, Requirements } from './ilp.js';
import { passesGates } from './ilp.js';

/** A unit larger than this is not followed: its candidate is simply kept in the model. */
const MAX_UNIT = 64;

export class Detachable {
  private readonly model: BundleModel;
  private readonly req: Requirements;
  private readonly dependents = new Map<string, string[]>();
  private readonly groups: ReadonlyMap<string, readonly { readonly candidate_id: string }[]>;

  constructor(model: BundleModel, req: Requirements) {
    this.model = model;
    this.req = req;
    for (const c of model.sorted)
      for (const d of new Set(c.depends_on)) {
        const list = this.dependents.get(d);
        if (list === undefined) this.dependents.set(d, [c.candidate_id]);
        else list.push(c.candidate_id);
      }
    this.groups = requiredGroups(model.sorted);
  }

  /**
   * Whether the candidate's unit can leave a bundle without lowering what is held: none of it
   * named or of required content, none earning preferred relevance, nor discretionary relevance
   * when that level is held too.
   */
  private detachable(id: string, holdDiscretionary: boolean): boolean {
    const unit = new Set([id]);
    const queue = [id];
    for (let next = queue.pop(); next !== undefined; next = queue.pop()) {
      const c = this.model.candidate(next);
      const earns = this.model.earning.get(next);
      if (earns === 'preferred' || (earns === 'discretionary' && holdDiscretionary)) return false;
      if (this.req.named.has(next) || this.req.contents.has(c.content_identity)) return false;
      for (const m of [...this.mates(c), ...(this.dependents.get(next) ?? [])]) {
        if (unit.has(m)) continue;
        if (unit.size >= MAX_UNIT) return false;
        unit.add(m);
        queue.push(m);
      }
    }
    return true;
  }

  /** The other members of the candidate's group, and the candidate itself; none without a group. */
  private mates(c: BundleModel['sorted'][number]): string[] {
    const g = requiredGroupOf(c);
    return g === null ? [] : (this.groups.get(g) ?? []).map((m) => m.candidate_id);
  }

  private cost(id: string): number {
    return itemRenderCost(this.model.candidate(id), this.model.input.policy);
  }

  /**
   * Whether no candidate earning discretionary relevance fits beside a bundle of rendered cost
   * `cheapest`, the least of any holding the preferred optimum: each such candidate detachable
   * with the preferred level held, and its item more than the budget leaves.
   */
  noDiscretionaryFits(cheapest: number, budget: number): boolean {
    for (const c of this.model.sorted) {
      const id = c.candidate_id;
      if (this.model.earning.get(id) !== 'discretionary' || !passesGates(c)) continue;
      if (cheapest + this.cost(id) <= budget || !this.detachable(id, false)) return false;
    }
    return true;
  }

  /**
   * The pool less every candidate no optimal bundle holds: those eligible, costing something and
   * detachable with the preferred level held (and the discretionary one unless its optimum is 0),
   * then whatever depends on one of them or shares a group with one, which would be held at 0 with
   * it. Every optimal bundle lies within what is left, so it has the same optima.
   */
  kept(discretionaryIsZero: boolean): BundleModel['sorted'][number][] {
    const gone = new Set(
      this.model.sorted
        .filter((c) => passesGates(c) && this.cost(c.candidate_id) > 0)
        .filter((c) => this.detachable(c.candidate_id, !discretionaryIsZero))
        .map((c) => c.candidate_id),
    );
    for (let changed = gone.size > 0; changed; ) {
      changed = false;
      for (const c of this.model.sorted) {
        if (gone.has(c.candidate_id)) continue;
        if ([...c.depends_on, ...this.mates(c)].some((id) => gone.has(id))) {
          gone.add(c.candidate_id);
          changed = true;
        }
      }
    }
    return this.model.sorted.filter((c) => !gone.has(c.candidate_id));
  }
}
