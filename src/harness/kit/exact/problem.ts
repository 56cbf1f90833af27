/**
 * The static facts `exact` searches over (one pool, computed once): each form's forced set (its
 * dependencies and required-group mates, transitively), why a form can never be a member, what
 * each form is worth and costs; and what one search looks for and finds.
 */
import {
  byCandidateId,
  type ContextCandidate,
  gate,
  headerCost,
  itemRenderCost,
  promotedClass,
  requiredGroupOf,
  requiredGroups,
  separatorCost,
  walkClosure,
} from '../../../compiler/index.js';
import type { Objective, StrategyInput } from '../../types.js';
import { compareIdLists, compareObjectives } from '../objective.js';

/** Why a form can never be a member, whatever else is chosen. */
export interface Dead {
  readonly kind: 'ineligible' | 'dependency' | 'group' | 'collision' | 'named';
  readonly detail: string;
}

/** The static facts of one pool: forced sets, values, costs. */
export class Problem {
  readonly input: StrategyInput;
  readonly lookup: ReadonlyMap<string, ContextCandidate>;
  readonly byIdentity = new Map<string, ContextCandidate[]>();
  readonly forced = new Map<string, readonly string[]>();
  readonly dead = new Map<string, Dead>();
  /** Content identity -> the form `required_ids` names for it. */
  readonly named = new Map<string, string>();
  readonly header: number;
  /** What a separator between two members costs. */
  readonly separator: number;
  readonly valueP = new Map<string, number>();
  readonly valueD = new Map<string, number>();

  constructor(input: StrategyInput) {
    this.input = input;
    this.lookup = new Map(input.candidates.map((c) => [c.candidate_id, c]));
    this.header = headerCost(input.request, input.policy);
    this.separator = separatorCost(input.policy);
    const sorted = [...input.candidates].sort(byCandidateId);
    for (const c of sorted) {
      this.byIdentity.set(c.content_identity, [...(this.byIdentity.get(c.content_identity) ?? []), c]);
    }
    for (const id of new Set(input.request.required_ids)) {
      const c = this.lookup.get(id);
      // Two named forms of one content can never both be members: no form is left to choose.
      if (c) this.named.set(c.content_identity, this.named.has(c.content_identity) ? '' : id);
    }
    const groups = new Map([...requiredGroups(sorted)].map(([g, m]) => [g, m.map((c) => c.candidate_id)]));
    const edges = (id: string) => {
      const c = this.lookup.get(id) as ContextCandidate;
      const g = requiredGroupOf(c);
      return g === null ? c.depends_on : [...c.depends_on, ...(groups.get(g) ?? [])];
    };
    const threshold = input.policy.min_discretionary_relevance;
    const named = new Set(input.request.required_ids);
    for (const c of sorted) {
      const id = c.candidate_id;
      const set = walkClosure(id, edges);
      this.forced.set(id, set);
      const why = this.deadReason(c, set);
      if (why) this.dead.set(id, why);
      const canEarn = c.relevance >= threshold || c.coverage_keys.length > 0;
      const k = promotedClass(c, named);
      this.valueP.set(id, canEarn && k === 'PREFERRED' ? c.relevance : 0);
      this.valueD.set(id, canEarn && k === 'DISCRETIONARY' ? c.relevance : 0);
    }
  }

  private deadReason(c: ContextCandidate, set: readonly string[]): Dead | null {
    const seen = new Map<string, string>();
    for (const id of set) {
      const n = this.lookup.get(id) as ContextCandidate;
      const code = gateCode(n);
      if (code !== 'eligible') {
        if (id === c.candidate_id) return { kind: 'ineligible', detail: `${id} fails ${code}` };
        const viaGroup = requiredGroupOf(n) !== null && !dependsOnly(this.lookup, c.candidate_id, id);
        return {
          kind: viaGroup ? 'group' : 'dependency',
          detail: `${c.candidate_id} needs ${id}, which fails ${code}`,
        };
      }
      const other = seen.get(n.content_identity);
      if (other !== undefined) {
        return {
          kind: 'collision',
          detail: `${c.candidate_id} needs two forms of ${n.content_identity}: ${other}, ${id}`,
        };
      }
      seen.set(n.content_identity, id);
      const pinned = this.named.get(n.content_identity);
      if (pinned !== undefined && pinned !== id) {
        return {
          kind: 'named',
          detail: `${c.candidate_id} needs ${id}, but ${pinned} is the named form of ${n.content_identity}`,
        };
      }
    }
    return null;
  }

  /** The forms a content may take: alive, and the named one when there is one. */
  options(identity: string): readonly ContextCandidate[] {
    // Asked for every content at every node of a search: made once per content.
    let kept = this.kept.get(identity);
    if (kept === undefined) {
      const pinned = this.named.get(identity);
      kept = (this.byIdentity.get(identity) ?? []).filter(
        (c) => !this.dead.has(c.candidate_id) && (pinned === undefined || c.candidate_id === pinned),
      );
      this.kept.set(identity, kept);
    }
    return kept;
  }
  private readonly kept = new Map<string, readonly ContextCandidate[]>();

  /** The same pool with only these ids named (a certificate drops requirements one by one). */
  withNamed(named: ReadonlySet<string>): Problem {
    const ids = [...named].sort();
    if (ids.join('\n') === [...new Set(this.input.request.required_ids)].sort().join('\n')) return this;
    return new Problem({ ...this.input, request: { ...this.input.request, required_ids: ids } });
  }

  itemCost(id: string): number {
    return itemRenderCost(this.lookup.get(id) as ContextCandidate, this.input.policy);
  }
}

const gateCode = (c: ContextCandidate) => gate(c).code;

/** Is `target` reached from `start` by dependencies alone (no group edges)? */
function dependsOnly(lookup: ReadonlyMap<string, ContextCandidate>, start: string, target: string): boolean {
  return walkClosure(start, (id) => lookup.get(id)?.depends_on ?? []).includes(target);
}

export interface SearchGoal {
  /** Contents that must be present. */
  readonly required: ReadonlySet<string>;
  /** Maximise the objective (optimise) or only minimise the rendered cost (feasibility). */
  readonly mode: 'optimise' | 'min-cost';
  /** Prune anything that cannot fit this many tokens; Infinity for none. */
  readonly budget: number;
}

export interface Found {
  readonly ids: readonly string[];
  readonly objective: Objective;
}

/** Whether `f` beats `best` for the goal: the smaller cost or the better objective, then the smaller id list. */
export function beats(mode: SearchGoal['mode'], f: Found, best: Found | null): boolean {
  if (best === null) return true;
  if (mode === 'min-cost') {
    const a = f.objective.rendered_cost;
    const b = best.objective.rendered_cost;
    return a < b || (a === b && compareIdLists(f.ids, best.ids) < 0);
  }
  const c = compareObjectives(f.objective, best.objective);
  return c > 0 || (c === 0 && compareIdLists(f.ids, best.ids) < 0);
}

/**
 * The branch and bound's nodes under a work limit in nodes times pool size (a node costs about
 * one pass over the pool), at most `most` and at least 1.
 */
export const nodesWithin = (work: number, size: number, most: number): number =>
  Math.max(1, Math.min(most, Math.floor(work / Math.max(1, size))));
