/**
 * A certified refusal: when no legal bundle exists, a minimal set of requirements that cannot
 * hold together (each one dropped in turn would make the rest satisfiable), with what each costs
 * at least, so a person can check it.
 */
import { type FailureReason, gate } from '../../../compiler/index.js';
import type { Refusal, StrategyInput } from '../../types.js';
import type { Problem } from './problem.js';

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

export type Constraint = Requirement & {
  readonly kind: Exclude<Requirement['kind'], 'budget'> | 'budget';
};

/**
 * Answers "what is the least rendered cost of a legal bundle meeting these requirements (budget
 * aside)?", Infinity when none does. `complete` turns false when a limit stopped an answer.
 */
export interface CostOracle {
  minCost(constraints: readonly Constraint[]): number;
  readonly complete: boolean;
}

/** What the requirements ask: contents present, named candidates pinned. */
export function asked(problem: Problem, constraints: readonly Constraint[]) {
  const contents = new Set<string>();
  for (const c of constraints) {
    if (c.kind === 'mandatory' || c.kind === 'required') contents.add(c.id);
    if (c.kind === 'named') contents.add(problem.lookup.get(c.id)?.content_identity ?? c.id);
  }
  // A named form not among the constraints must not pin its content.
  const named = new Set(constraints.filter((c) => c.kind === 'named').map((c) => c.id));
  return { contents, named };
}

const holds = (oracle: CostOracle, problem: Problem, constraints: readonly Constraint[]): boolean => {
  const cost = oracle.minCost(constraints);
  const budget = constraints.some((c) => c.kind === 'budget');
  return budget ? cost <= problem.input.budget : Number.isFinite(cost);
};

/**
 * The requirements a refusal can rest on: each named id, each content with a declared MANDATORY
 * or REQUIRED candidate, and the budget. A content required only because a named form promotes
 * it is covered by that named id, not listed twice.
 */
export function constraintsOf(input: StrategyInput): Constraint[] {
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
export function certify(input: StrategyInput, problem: Problem, checker: CostOracle): Certificate {
  let kept = constraintsOf(input);
  for (const c of [...kept]) {
    const without = kept.filter((x) => x !== c);
    if (!holds(checker, problem, without)) kept = without;
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
  return { reason, budget, requirements, minimal: checker.complete, text };
}

/** The refusal a certificate makes: its reason, the requirements it rests on, its text. */
export function refusalOf(certificate: Certificate): Refusal['refusal'] {
  const blocking = certificate.requirements.filter((r) => r.kind !== 'budget').map((r) => r.id);
  return { reason: certificate.reason, blocking_ids: blocking, diagnostic: certificate.text, budget_used: 0 };
}
