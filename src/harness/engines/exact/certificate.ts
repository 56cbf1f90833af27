/**
 * A certified refusal: when no legal bundle exists, a minimal set of requirements that cannot
 * hold together (each one dropped in turn would make the rest satisfiable), with what each costs
 * at least, so a person can check it.
 */
import { type FailureReason, gate } from '../../kit/index.js';
import type { StrategyInput } from '../../types.js';
import type { Problem, SearchGoal } from './problem.js';
import { Search } from './search.js';

/** One requirement of a certificate. */
export interface Requirement {
  readonly kind: 'mandatory' | 'required' | 'named' | 'budget';
  /** A content identity, a candidate id, or `budget`. */
  readonly id: string;
  /** The least this requirement adds to the rendered cost, given the ones before it. */
  readonly at_least?: number | undefined;
  readonly why?: string | undefined;
}

export interface Certificate {
  readonly reason: FailureReason;
  readonly budget: number;
  readonly requirements: readonly Requirement[];
  /** False when a feasibility check hit the node limit, so a smaller set might exist. */
  readonly minimal: boolean;
  readonly text: string;
}

type Constraint = Requirement & { readonly kind: Exclude<Requirement['kind'], 'budget'> | 'budget' };

class Checker {
  readonly problem: Problem;
  readonly nodeLimit: number;
  complete = true;
  nodes = 0;

  constructor(problem: Problem, nodeLimit: number) {
    this.problem = problem;
    this.nodeLimit = nodeLimit;
  }

  /** The least rendered cost of a legal bundle meeting these requirements (budget aside). */
  minCost(constraints: readonly Constraint[]): number {
    const required = new Set<string>();
    for (const c of constraints) {
      if (c.kind === 'mandatory' || c.kind === 'required') required.add(c.id);
      if (c.kind === 'named') required.add(this.problem.lookup.get(c.id)?.content_identity ?? c.id);
    }
    // A named form not among the constraints must not pin its content.
    const pinned = new Set(constraints.filter((c) => c.kind === 'named').map((c) => c.id));
    const view = this.problem.withNamed(pinned);
    const goal: SearchGoal = { required, mode: 'min-cost', budget: Number.POSITIVE_INFINITY };
    const search = new Search(view, goal, this.nodeLimit);
    search.run();
    this.nodes += search.nodes;
    if (search.aborted) this.complete = false;
    return search.best?.objective.rendered_cost ?? Number.POSITIVE_INFINITY;
  }

  holds(constraints: readonly Constraint[]): boolean {
    const cost = this.minCost(constraints);
    const budget = constraints.some((c) => c.kind === 'budget');
    return budget ? cost <= this.problem.input.budget : Number.isFinite(cost);
  }
}

/**
 * The requirements a refusal can rest on: each named id, each content with a declared MANDATORY
 * or REQUIRED candidate, and the budget. A content required only because a named form promotes
 * it is covered by that named id, not listed twice.
 */
function constraintsOf(input: StrategyInput): Constraint[] {
  const named = [...new Set(input.request.required_ids)]
    .sort()
    .map((id): Constraint => ({ kind: 'named', id }));
  const declared = new Map<string, Constraint['kind']>();
  for (const c of input.candidates) {
    if (c.requirement === 'MANDATORY') declared.set(c.content_identity, 'mandatory');
    else if (c.requirement === 'REQUIRED' && !declared.has(c.content_identity))
      declared.set(c.content_identity, 'required');
  }
  const contents = [...declared].map(([id, kind]): Constraint => ({ kind, id }));
  contents.sort((a, b) => (a.kind === b.kind ? (a.id < b.id ? -1 : 1) : a.kind === 'mandatory' ? -1 : 1));
  return [...named, ...contents, { kind: 'budget', id: 'budget' }];
}

/** Why one requirement alone can never be met, in the compiler's vocabulary. */
function structuralReason(problem: Problem, c: Constraint): { reason: FailureReason; why: string } {
  const forms =
    c.kind === 'named'
      ? [problem.lookup.get(c.id)].filter((x) => x !== undefined)
      : (problem.byIdentity.get(c.id) ?? []);
  const eligible = forms.filter((f) => gate(f).code === 'eligible');
  if (eligible.length === 0) {
    const floor = forms.length > 0 && forms.every((f) => gate(f).code === 'illegal_representation');
    const codes = forms.map((f) => `${f.candidate_id} ${gate(f).code}`).join(', ');
    return {
      reason: floor ? 'NO_LEGAL_REPRESENTATION' : 'REQUIRED_INELIGIBLE',
      why: `no form passes the gates (${codes})`,
    };
  }
  const deaths = eligible.map((f) => problem.dead.get(f.candidate_id)).filter((d) => d !== undefined);
  const group = deaths.length > 0 && deaths.every((d) => d.kind === 'group');
  return {
    reason: group ? 'UNRESOLVED_REQUIRED_GROUP' : 'UNSATISFIED_DEPENDENCY',
    why: deaths.map((d) => d.detail).join('; ') || 'its forms conflict with the other requirements',
  };
}

/** Deletion filter: drop each requirement the infeasibility does not need. */
export function certify(
  input: StrategyInput,
  problem: Problem,
  nodeLimit: number,
): Certificate & { nodes: number } {
  const checker = new Checker(problem, nodeLimit);
  let kept = constraintsOf(input);
  for (const c of [...kept]) {
    const without = kept.filter((x) => x !== c);
    if (!checker.holds(without)) kept = without;
  }
  const budget = input.budget;
  const hasBudget = kept.some((c) => c.kind === 'budget');
  const content = kept.filter((c) => c.kind !== 'budget');
  let reason: FailureReason;
  let requirements: Requirement[];
  let text: string;
  if (hasBudget) {
    reason = 'INSUFFICIENT_BUDGET';
    let before = problem.header;
    requirements = content.map((c, k) => {
      const cost = checker.minCost(content.slice(0, k + 1));
      const at = { ...c, at_least: cost - before };
      before = cost;
      return at;
    });
    const parts = requirements.map(
      (r, k) => `${r.kind} ${r.id} ${k === 0 ? 'needs ' : ''}at least ${r.at_least}${k === 0 ? '' : ' more'}`,
    );
    const frame = `the ${problem.header}-token frame`;
    text =
      parts.length === 0
        ? `${frame} alone exceeds budget ${budget}`
        : `${parts.join(', ')}; with ${frame}, at least ${before} > budget ${budget}`;
    requirements.push({ kind: 'budget', id: 'budget', at_least: budget });
  } else if (content.length === 1) {
    const only = content[0] as Constraint;
    const s = structuralReason(problem, only);
    reason = s.reason;
    requirements = [{ ...only, why: s.why }];
    text = `${only.kind} ${only.id}: ${s.why}`;
  } else {
    const twoNamed = content.length === 2 && content.every((c) => c.kind === 'named');
    reason = twoNamed ? 'REQUIRED_INELIGIBLE' : 'UNSATISFIED_DEPENDENCY';
    requirements = content;
    text = `${content.map((c) => `${c.kind} ${c.id}`).join(' and ')} cannot hold together`;
  }
  return { reason, budget, requirements, minimal: checker.complete, text, nodes: checker.nodes };
}
