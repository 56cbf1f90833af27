import { walkClosure } from './closure.js';
import { type GateVerdict, gate, requiredGroupOf } from './gates.js';
import type { CompilerPolicy, ContextCandidate, ContextRequest, RequirementClass } from './types.js';

const byId = (a: ContextCandidate, b: ContextCandidate): number =>
  a.candidate_id < b.candidate_id ? -1 : a.candidate_id > b.candidate_id ? 1 : 0;

/**
 * The static facts of one compilation's candidate pool, computed once: lookups, gate verdicts,
 * effective bands, groups and dependency closures. Nothing here changes while admitting.
 */
export class Pool {
  readonly byId = new Map<string, ContextCandidate>();
  /** Candidates in ascending id order: the order every scan of the reference uses. */
  readonly sorted: readonly ContextCandidate[];
  readonly gates = new Map<string, GateVerdict>();
  readonly bands = new Map<string, RequirementClass>();
  /** Required group id -> its members, sorted by id, whatever their band or eligibility. */
  readonly groups = new Map<string, readonly ContextCandidate[]>();
  /** Content identity -> the ids named by `required_ids` (refuse mode pins those forms). */
  readonly namedByIdentity = new Map<string, string[]>();
  readonly strict: boolean;
  private readonly closures = new Map<string, readonly string[]>();

  readonly candidates: readonly ContextCandidate[];
  readonly request: ContextRequest;
  readonly policy: CompilerPolicy;

  constructor(candidates: readonly ContextCandidate[], request: ContextRequest, policy: CompilerPolicy) {
    this.candidates = candidates;
    this.request = request;
    this.policy = policy;
    this.strict = policy.required_missing === 'refuse';
    for (const c of candidates) this.byId.set(c.candidate_id, c);
    this.sorted = [...candidates].sort(byId);
    const named = new Set(request.required_ids);
    for (const c of this.sorted) {
      this.gates.set(c.candidate_id, gate(c));
      const g = requiredGroupOf(c);
      if (g !== null) this.groups.set(g, [...(this.groups.get(g) ?? []), c]);
      if (named.has(c.candidate_id)) {
        this.namedByIdentity.set(c.content_identity, [
          ...(this.namedByIdentity.get(c.content_identity) ?? []),
          c.candidate_id,
        ]);
      }
    }
    for (const c of this.sorted) this.bands.set(c.candidate_id, this.effectiveBand(c, named));
  }

  /**
   * Named candidates are promoted to REQUIRED (MANDATORY stays MANDATORY); only the named form,
   * not its siblings. In refuse mode a required group takes the strongest class of any member,
   * so promotion can never split it across two stages.
   */
  private effectiveBand(c: ContextCandidate, named: ReadonlySet<string>): RequirementClass {
    const promoted = (x: ContextCandidate): RequirementClass =>
      named.has(x.candidate_id) && x.requirement !== 'MANDATORY' ? 'REQUIRED' : x.requirement;
    const own = promoted(c);
    const g = requiredGroupOf(c);
    if (!this.strict || g === null) return own;
    const rank = (b: RequirementClass) => ['MANDATORY', 'REQUIRED', 'PREFERRED', 'DISCRETIONARY'].indexOf(b);
    return (this.groups.get(g) ?? []).map(promoted).reduce((a, b) => (rank(b) < rank(a) ? b : a), own);
  }

  get(id: string): ContextCandidate {
    const c = this.byId.get(id);
    if (c === undefined) throw new Error(`unknown candidate ${id}`);
    return c;
  }

  band(id: string): RequirementClass {
    return this.bands.get(id) as RequirementClass;
  }

  verdict(id: string): GateVerdict {
    return this.gates.get(id) as GateVerdict;
  }

  eligible(id: string): boolean {
    return this.verdict(id).code === 'eligible';
  }

  groupMembers(c: ContextCandidate): readonly ContextCandidate[] | null {
    const g = requiredGroupOf(c);
    return g === null ? null : (this.groups.get(g) ?? null);
  }

  /**
   * Depth-first pre-order from `id` along `depends_on` in listed order, each node once (cycles
   * terminate); starts with `id` itself. This is what the trace reports as dependencies.
   */
  closure(id: string): readonly string[] {
    return this.walk(id, this.closures, (c) => c.depends_on);
  }

  /**
   * The closure that admission prices and commits. In refuse mode a node in a required group
   * brings its whole group along, so a dependency can never admit half a group; otherwise it is
   * the plain closure.
   */
  unitClosure(id: string): readonly string[] {
    if (!this.strict) return this.closure(id);
    return this.walk(id, this.groupClosures, (c) => {
      const mates = this.groupMembers(c);
      return mates === null ? c.depends_on : [...c.depends_on, ...mates.map((m) => m.candidate_id)];
    });
  }

  private readonly groupClosures = new Map<string, readonly string[]>();

  private walk(
    id: string,
    cache: Map<string, readonly string[]>,
    edgesOf: (c: ContextCandidate) => readonly string[],
  ): readonly string[] {
    let known = cache.get(id);
    if (known === undefined) {
      known = walkClosure(id, (x) => edgesOf(this.get(x)));
      cache.set(id, known);
    }
    return known;
  }
}
