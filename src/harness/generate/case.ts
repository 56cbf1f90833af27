/**
 * Synthetic cases with the shape of real candidate pools, from a seed (seedrandom): contents in
 * one to four forms with floors, few MANDATORY and REQUIRED contents and many optional ones,
 * about one candidate in ten failing each gate, references that need one of a few shared
 * expensive tools, a few dependency cycles, required groups of two or three, coverage keys from a
 * small vocabulary, relevance over [0, 1]. The ledger follows from how each content was made.
 * Same seed, same bytes.
 */
import seedrandom from 'seedrandom';
import {
  byCandidateId,
  type ContextCandidate,
  type ContextRequest,
  defaultPolicy,
  SCHEMA,
} from '../../compiler/index.js';
import { leastLegalCost } from '../engines/exact/optimise.js';
import { DEFAULT_ILP_LIMITS } from '../engines/exact/solve.js';
import type { CaseLedger, IdentityTruth } from '../types.js';
import {
  between,
  candidate,
  FORMS,
  formOf,
  Groups,
  pick,
  planContent,
  type Rng,
  round2,
  sentence,
} from './content.js';

export interface GeneratedCase {
  readonly request: ContextRequest;
  readonly candidates: readonly ContextCandidate[];
  readonly ledger: CaseLedger;
  /** Tight, medium and roomy budgets for this pool. */
  readonly budgets: { readonly tight: number; readonly medium: number; readonly roomy: number };
}

/** A few shared tools, never more than leave room for the instruction and the task. */
function addTools(
  rng: Rng,
  size: number,
  candidates: ContextCandidate[],
  truth: Record<string, IdentityTruth>,
) {
  const toolCount = Math.min(Math.max(0, size - 2), Math.max(2, Math.min(8, Math.round(size / 150))));
  const tools = Array.from({ length: toolCount }, (_, k) => `tool-${k}`);
  for (const [k, id] of tools.entries()) {
    candidates.push(
      candidate(id, {
        content_identity: id,
        content: sentence(rng, 40),
        token_count: between(rng, 300, 900),
        requirement: 'PREFERRED',
        order_role: 'tool',
        kind: 'tool',
        relevance: round2(0.1 + 0.3 * rng()),
        is_default_form: true,
        // A couple of tools need each other: the closure must still terminate.
        depends_on: k === 1 ? [tools[0] as string] : k === 0 && toolCount > 2 ? [tools[1] as string] : [],
      }),
    );
    truth[id] = { eval_class: 'optional', min_representation: 'full' };
  }
  return tools;
}

/** One synthetic case of about `size` candidates. */
export function generateCase(seed: string, size: number, name = 'generated'): GeneratedCase {
  const rng = seedrandom(seed);
  const candidates: ContextCandidate[] = [];
  const truth: Record<string, IdentityTruth> = {};
  const tools = addTools(rng, size, candidates, truth);
  // Must content does not grow with the pool: a few dozen items at most, whatever its size.
  const mustShare = Math.min(0.06, 40 / size);
  const groups = new Groups();
  for (let k = 0; candidates.length < size; k++) {
    const plan = planContent(rng, k, groups.band, mustShare);
    const full = between(rng, 120, 900);
    const forms = FORMS.slice(4 - plan.forms);
    const defaultRank = (forms.length > 1 && rng() < 0.6 ? forms[forms.length - 2]?.form_rank : 3) ?? 3;
    const content = { k, plan, full, defaultRank, group: groups.join(rng, k, plan.band), tools };
    for (const f of forms) {
      if (candidates.length >= size) break;
      candidates.push(formOf(rng, content, f));
    }
    const legalMin = forms.find((f) => f.form_rank >= Math.max(plan.floor, 2)) ?? forms[forms.length - 1];
    truth[plan.identity] = {
      eval_class: plan.truth,
      min_representation: legalMin?.representation_id ?? 'full',
    };
  }
  addCycle(candidates, rng);
  // Written in id order, as a store that keys candidates by id would hand them over.
  candidates.sort(byCandidateId);
  const present = new Set(candidates.map((c) => c.content_identity));
  for (const identity of Object.keys(truth)) if (!present.has(identity)) delete truth[identity];
  const budgets = budgetsFor(requestFor(name, 0), candidates, truth);
  return {
    request: requestFor(name, budgets.medium),
    candidates,
    ledger: { expected: { success: true, reason: null }, identity_truth: truth },
    budgets,
  };
}

const requestFor = (name: string, budget: number): ContextRequest => ({
  schema_version: SCHEMA.request,
  request_id: `${name}-req`,
  task_id: `${name}-task`,
  usable_token_budget: budget,
  created_at: '2026-01-01T00:00:00Z',
  active_scope: 'synthetic-project-a',
  required_ids: [],
  policy_version: defaultPolicy().policy_version,
});

/** Two optional candidates that need each other, when the pool has room for them. */
function addCycle(candidates: ContextCandidate[], rng: Rng): void {
  const open = candidates.filter(
    (c) => c.requirement === 'DISCRETIONARY' && c.depends_on.length === 0 && c.group_id === null,
  );
  if (open.length < 4) return;
  const a = pick(rng, open);
  const b = pick(
    rng,
    open.filter((c) => c.content_identity !== a.content_identity),
  );
  const ia = candidates.indexOf(a);
  const ib = candidates.indexOf(b);
  candidates[ia] = { ...a, depends_on: [b.candidate_id] };
  candidates[ib] = { ...b, depends_on: [a.candidate_id] };
}

/**
 * Budgets from the pool's own sizes. `need` is the least rendered cost of any legal bundle, as
 * `exact` proves it: tight lies below it (no legal bundle fits), medium and roomy above it (one
 * does), with room for part or all of the should content on top.
 */
function budgetsFor(
  request: ContextRequest,
  candidates: readonly ContextCandidate[],
  truth: Readonly<Record<string, IdentityTruth>>,
) {
  const input = { request, candidates, policy: defaultPolicy(), budget: request.usable_token_budget };
  const { cost: need, proven } = leastLegalCost(input, DEFAULT_ILP_LIMITS);
  if (!proven || !Number.isFinite(need))
    throw new Error('a generated pool has no provably least legal bundle');
  const cheapest = new Map<string, number>();
  for (const c of candidates) {
    const known = cheapest.get(c.content_identity);
    if (known === undefined || c.token_count < known) cheapest.set(c.content_identity, c.token_count);
  }
  const should = [...cheapest]
    .filter(([i]) => truth[i]?.eval_class === 'should')
    .reduce((s, [, n]) => s + n + 4, 0);
  return {
    tight: Math.floor(need * 0.9),
    medium: need + Math.round(need * 0.1 + should * 0.4),
    roomy: need + Math.round(need * 0.3 + should * 1.2),
  };
}
