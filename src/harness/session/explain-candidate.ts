/**
 * Why one candidate is in a compilation or out of it, and what would admit it. The first half is
 * the trace's decision for it, in words. The second is measured, not guessed: the strategy is run
 * again at other budgets and with the candidate required, because what a greedy or optimising
 * strategy does at another budget is not something its first trace tells.
 */
import type { ContextCandidate, TraceEntry } from '../../compiler/index.js';
import { UsageError } from '../errors.js';
import type { Inputs } from '../hosts/index.js';
import type { Compiled } from '../types.js';
import type { CompileSession } from './compile-session.js';
import { leastBudget } from './least-budget.js';

/** Another form of the same content, and what became of it. */
export interface OtherForm {
  readonly candidate_id: string;
  readonly representation_id: string;
  readonly form_rank: number;
  readonly token_count: number;
  /** The hard gates and the form floor passed. */
  readonly legal: boolean;
  readonly decision: string | null;
}

/** `explain`'s answer, every key present; what was not measured is null. */
export interface Explanation {
  readonly candidate_id: string;
  readonly content_identity: string;
  readonly representation_id: string;
  readonly strategy: string;
  readonly budget: number;
  readonly outcome: 'bundle' | 'refusal';
  readonly admitted: boolean;
  /** The trace's entry for it, as the strategy wrote it; null when the compilation never reached it. */
  readonly entry: TraceEntry | null;
  /** The decision in words. */
  readonly why: string;
  /** What would admit it, in words: the gate, the form, the budget, naming it required. */
  readonly would_take: readonly string[];
  /** The least budget found at which this candidate is admitted; null if none up to the top one tried. */
  readonly least_budget: number | null;
  /** The compilation at this budget with the candidate in `required_ids`. */
  readonly if_required: { readonly outcome: string; readonly admitted: boolean } | null;
  readonly other_forms: readonly OtherForm[];
}

const GATES = [
  ['scope_eligible', 'scope_reason', 'scope'],
  ['freshness_eligible', 'freshness_reason', 'freshness'],
  ['authority_eligible', 'authority_reason', 'authority'],
] as const;

/** The first hard gate a candidate fails, in the compiler's order, in words; null when it passes them all. */
function failedGate(c: ContextCandidate): string | null {
  for (const [flag, reason, name] of GATES)
    if (!c[flag]) return `it fails the ${name} gate${c[reason] ? ` (${c[reason]})` : ''}`;
  if (c.form_rank < c.min_rank) return `its form rank ${c.form_rank} is below the floor ${c.min_rank}`;
  return null;
}

/**
 * What admitting `c` would cost on top of the bundle: itself and every dependency in its closure
 * not already admitted, each paid once; `missing` names those dependencies.
 */
function unitCost(c: ContextCandidate, byId: ReadonlyMap<string, ContextCandidate>, out: Compiled) {
  const inBundle = new Set(out.outcome === 'bundle' ? out.admitted : []);
  const seen = new Set<string>();
  const walk = (id: string): void => {
    if (seen.has(id)) return;
    seen.add(id);
    for (const d of byId.get(id)?.depends_on ?? []) walk(d);
  };
  walk(c.candidate_id);
  const unit = [...seen].filter((id) => !inBundle.has(id));
  return {
    cost: unit.reduce((n, id) => n + (byId.get(id)?.token_count ?? 0), 0),
    missing: unit.filter((id) => id !== c.candidate_id),
  };
}

const entriesOf = (c: Compiled): readonly TraceEntry[] =>
  c.outcome === 'error' ? [] : c.record.trace.entries;
const admits = (c: Compiled, id: string): boolean => c.outcome === 'bundle' && c.admitted.includes(id);

/** The form of `c`'s content in the bundle, when another one is. */
const chosenForm = (c: ContextCandidate, inputs: Inputs, out: Compiled): ContextCandidate | undefined =>
  out.outcome === 'bundle'
    ? inputs.candidates.find(
        (x) =>
          x.content_identity === c.content_identity &&
          x.candidate_id !== c.candidate_id &&
          out.admitted.includes(x.candidate_id),
      )
    : undefined;

/** A candidate, its compilation and its trace entry: what the words are made from. */
interface Seen {
  readonly c: ContextCandidate;
  readonly entry: TraceEntry | null;
  readonly out: Compiled;
  readonly inputs: Inputs;
  readonly byId: ReadonlyMap<string, ContextCandidate>;
}

/** The decision in words, and the form of its content that is in the bundle instead, if one is. */
function why(seen: Seen): string {
  const { c, entry, out, inputs } = seen;
  const words = decisionWords(seen);
  const chosen = chosenForm(c, inputs, out);
  return chosen === undefined || entry?.decision === 'REJECTED_ALTERNATIVE'
    ? words
    : `${words}; its content is in the bundle as ${chosen.candidate_id} (${chosen.representation_id})`;
}

/** The decision in words, from the entry and the candidate's own record. */
function decisionWords({ c, entry, out, inputs, byId }: Seen): string {
  if (entry === null) {
    if (out.outcome === 'refusal')
      return `the compilation refused (${out.reason}${out.record.failure?.diagnostic ? `: ${out.record.failure.diagnostic}` : ''}) before it decided on this candidate`;
    return 'the strategy left it out without a word in its trace';
  }
  switch (entry.decision) {
    case 'ADMITTED': {
      const by =
        entry.pulled_in_by.length > 0
          ? `, pulled in as a dependency of ${entry.pulled_in_by.join(', ')}`
          : '';
      return `admitted (${entry.reason_detail})${by}: it costs ${c.token_count} tokens; ${entry.budget_after} of the budget were left after its unit`;
    }
    case 'REJECTED_HARD':
      return `left out by a hard gate: ${failedGate(c) ?? entry.reason_detail}; no budget admits it`;
    case 'REJECTED_DEPENDENCY': {
      const blocker = entry.dependency_closure.find((d) => {
        const dep = byId.get(d);
        return dep === undefined || failedGate(dep) !== null;
      });
      const dep = blocker === undefined ? undefined : byId.get(blocker);
      return blocker === undefined
        ? `left out: a dependency's content was already admitted in another form (${entry.reason_detail})`
        : `left out: it depends on ${blocker}, which ${dep === undefined ? 'is not in the pool' : failedGate(dep)}`;
    }
    case 'REJECTED_BUDGET': {
      if (entry.reason_code === 'repair-drop')
        return 'admitted, then dropped to bring the rendered bundle within the budget';
      const { cost, missing } = unitCost(c, byId, out);
      const deps = missing.length > 0 ? ` (itself and ${missing.join(', ')})` : '';
      return `left out for budget: it needed ${cost} tokens${deps} and ${entry.budget_before} were left${
        entry.reason_code === 'budget' ? '' : ` (reason: ${entry.reason_code})`
      }`;
    }
    case 'REJECTED_REDUNDANT':
      return `left out as redundant: relevance ${entry.relevance}, below the policy's min_discretionary_relevance ${inputs.policy.min_discretionary_relevance}, and no coverage key the bundle lacked`;
    case 'REJECTED_ALTERNATIVE': {
      const chosen = chosenForm(c, inputs, out);
      return `left out: another form of this content${chosen ? ` (${chosen.candidate_id}, ${chosen.representation_id})` : ''} was admitted, and one form per content is kept`;
    }
    default:
      return `${entry.decision}: ${entry.reason_detail}`;
  }
}

/**
 * Why `id` is in or out of the compilation of `inputs` by the session's strategy, and what would
 * admit it: at most one compilation per budget tried (a bisection, bounded by the pool's total), and
 * one with it required. A candidate a hard gate excludes is not compiled again: no budget helps.
 */
export async function explainCandidate(
  session: CompileSession,
  inputs: Inputs,
  id: string,
): Promise<Explanation> {
  const byId = new Map(inputs.candidates.map((c) => [c.candidate_id, c]));
  const c = byId.get(id);
  if (c === undefined) throw new UsageError(`no candidate "${id}" in the pool`);
  const budget = inputs.request.usable_token_budget;
  const at = (b: number, required = inputs.request.required_ids) =>
    session.measured(
      { ...inputs, request: { ...inputs.request, usable_token_budget: b, required_ids: required } },
      `explain@${b}`,
    );
  const out = await at(budget);
  if (out.outcome === 'error') throw new UsageError(`${session.strategy.name} failed: ${out.message}`);
  const entry = entriesOf(out).find((e) => e.candidate_id === id) ?? null;
  const admitted = admits(out, id);
  const gate = failedGate(c);
  const other_forms = inputs.candidates
    .filter((x) => x.content_identity === c.content_identity && x.candidate_id !== id)
    .map((x) => ({
      candidate_id: x.candidate_id,
      representation_id: x.representation_id,
      form_rank: x.form_rank,
      token_count: x.token_count,
      legal: failedGate(x) === null,
      decision: entriesOf(out).find((e) => e.candidate_id === x.candidate_id)?.decision ?? null,
    }));
  const measured = !admitted && gate === null;
  const least = measured
    ? await leastBudget(
        at,
        budget,
        inputs.candidates.reduce((n, x) => n + x.token_count, 0),
        (r) => admits(r, id),
      )
    : null;
  const required =
    measured && !inputs.request.required_ids.includes(id)
      ? await at(budget, [...inputs.request.required_ids, id])
      : null;
  const would_take: string[] = [];
  if (admitted) would_take.push('nothing: it is in the bundle');
  else if (gate !== null) {
    would_take.push(`a form that passes the gates: this one cannot be admitted, since ${gate}`);
    const legal = other_forms.filter((f) => f.legal);
    would_take.push(
      legal.length > 0
        ? `the content's legal forms: ${legal.map((f) => `${f.candidate_id} (${f.representation_id}, ${f.token_count} tokens${f.decision ? `, ${f.decision}` : ''})`).join('; ')}`
        : 'no other form of this content passes them',
    );
  } else {
    would_take.push(
      least === null
        ? 'more than a budget: none up to twice the whole pool admits it'
        : `a budget of ${least} tokens (found by compiling again; ${budget} given)`,
    );
    if (required !== null)
      would_take.push(
        admits(required, id)
          ? `naming it in the request's required_ids, which admits it at this budget`
          : `naming it in the request's required_ids is not enough: at this budget that ${required.outcome === 'refusal' ? `makes the compilation refuse (${required.reason})` : 'does not admit it'}`,
      );
  }
  return {
    candidate_id: id,
    content_identity: c.content_identity,
    representation_id: c.representation_id,
    strategy: session.strategy.name,
    budget,
    outcome: out.outcome,
    admitted,
    entry,
    why: why({ c, entry, out, inputs, byId }),
    would_take,
    least_budget: least,
    if_required: required === null ? null : { outcome: required.outcome, admitted: admits(required, id) },
    other_forms,
  };
}
