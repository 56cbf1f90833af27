/**
 * The static facts of one compilation's candidate pool (docs/compiler.md §5 to §9), computed
 * once: lookups, gate verdicts, effective classes, groups and dependency closures.
 */
import { promotedClass, strongerClass } from './classes.js';
import { walkClosure } from './closure.js';
import type { CompilerPolicy, ContextCandidate, ContextRequest, RequirementClass } from './compiler-types.js';
import { type GateVerdict, gate } from './gates.js';
import { requiredGroupOf } from './groups.js';
import { byCandidateId } from './order.js';
import type { WorkingEntry } from './trace-entry.js';

const push = <K, V>(map: Map<K, V[]>, key: K, value: V): void => {
  const list = map.get(key);
  if (list === undefined) map.set(key, [value]);
  else list.push(value);
};

/** One content identity, and whether some form of it is admitted (the compilation's state). */
export interface Content {
  readonly name: string;
  admitted: boolean;
}

/**
 * What the pool knows of one candidate; closures are filled in when first asked for. `entry`
 * is the candidate's trace entry once it has one: the compilation's state, kept here so that a
 * scan over the pool needs no lookups.
 */
export interface Fact {
  readonly c: ContextCandidate;
  band: RequirementClass;
  readonly verdict: GateVerdict;
  readonly eligible: boolean;
  readonly content: Content;
  entry?: WorkingEntry | undefined;
  closure?: readonly string[];
  unitClosure?: readonly string[];
  dependencies?: readonly string[];
  /** Its declared count and decoration, once asked for (docs/compiler.md §3). */
  itemCost?: number;
}

const NONE: readonly string[] = Object.freeze([]);

/**
 * The static facts of one compilation's candidate pool, computed once: lookups, gate verdicts,
 * effective bands, groups and dependency closures. Nothing here changes while admitting. One
 * record per candidate, so a lookup by id finds all of it at once.
 */
export class Pool {
  private readonly byId = new Map<string, Fact>();
  /** Candidates in ascending id order: the order every scan of the reference uses. */
  readonly sorted: readonly ContextCandidate[];
  /** Their facts in the same order, so a scan needs no lookups. */
  readonly facts: readonly Fact[];
  /** Required group id -> its members, sorted by id, whatever their band or eligibility. */
  readonly groups = new Map<string, ContextCandidate[]>();
  /** Content identity -> the ids named by `required_ids` (refuse mode pins those forms). */
  readonly namedByIdentity = new Map<string, string[]>();
  /** Content identity -> its forms, sorted by id. */
  readonly byIdentity = new Map<string, ContextCandidate[]>();
  readonly contents = new Map<string, Content>();
  readonly strict: boolean;
  readonly candidates: readonly ContextCandidate[];
  readonly request: ContextRequest;
  readonly policy: CompilerPolicy;

  constructor(candidates: readonly ContextCandidate[], request: ContextRequest, policy: CompilerPolicy) {
    this.candidates = candidates;
    this.request = request;
    this.policy = policy;
    this.strict = policy.required_missing === 'refuse';
    this.sorted = [...candidates].sort(byCandidateId);
    const named = new Set(request.required_ids);
    const facts: Fact[] = [];
    for (const c of this.sorted) {
      const verdict = gate(c);
      let content = this.contents.get(c.content_identity);
      if (content === undefined) {
        content = { name: c.content_identity, admitted: false };
        this.contents.set(c.content_identity, content);
      }
      const f: Fact = { c, band: c.requirement, verdict, eligible: verdict.code === 'eligible', content };
      facts.push(f);
      this.byId.set(c.candidate_id, f);
      const g = requiredGroupOf(c);
      if (g !== null) push(this.groups, g, c);
      push(this.byIdentity, c.content_identity, c);
      if (named.has(c.candidate_id)) push(this.namedByIdentity, c.content_identity, c.candidate_id);
    }
    this.facts = facts;
    if (named.size > 0 || this.strict) for (const f of facts) f.band = this.effectiveBand(f.c, named);
  }

  /**
   * Named candidates are promoted (docs/compiler.md §6). In refuse mode a required group takes
   * the strongest class of any member, so promotion can never split it across two stages (§17.3).
   */
  private effectiveBand(c: ContextCandidate, named: ReadonlySet<string>): RequirementClass {
    const own = promotedClass(c, named);
    const g = requiredGroupOf(c);
    if (!this.strict || g === null) return own;
    return (this.groups.get(g) ?? []).map((m) => promotedClass(m, named)).reduce(strongerClass, own);
  }

  fact(id: string): Fact {
    const f = this.byId.get(id);
    if (f === undefined) throw new Error(`unknown candidate ${id}`);
    return f;
  }

  has(id: string): boolean {
    return this.byId.has(id);
  }

  get(id: string): ContextCandidate {
    return this.fact(id).c;
  }

  band(id: string): RequirementClass {
    return this.fact(id).band;
  }

  verdict(id: string): GateVerdict {
    return this.fact(id).verdict;
  }

  eligible(id: string): boolean {
    return this.fact(id).eligible;
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
    const f = this.fact(id);
    f.closure ??= walkClosure(id, (x) => this.get(x).depends_on);
    return f.closure;
  }

  /** The closure without the candidate itself: what a trace entry lists as its dependencies. */
  dependencies(id: string): readonly string[] {
    return this.dependenciesOf(this.fact(id));
  }

  dependenciesOf(f: Fact): readonly string[] {
    if (f.c.depends_on.length === 0) return NONE;
    f.dependencies ??= this.closure(f.c.candidate_id).slice(1);
    return f.dependencies;
  }

  /**
   * The closure that admission prices and commits. In refuse mode a node in a required group
   * brings its whole group along, so a dependency can never admit half a group; otherwise it is
   * the plain closure.
   */
  unitClosure(id: string): readonly string[] {
    if (!this.strict) return this.closure(id);
    const f = this.fact(id);
    f.unitClosure ??= walkClosure(id, (x) => {
      const c = this.get(x);
      const mates = this.groupMembers(c);
      return mates === null ? c.depends_on : [...c.depends_on, ...mates.map((m) => m.candidate_id)];
    });
    return f.unitClosure;
  }
}
