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
  type RequirementClass,
  SCHEMA,
} from '../../compiler/index.js';
import type { CaseLedger, EvalClass, IdentityTruth } from '../types.js';

type Rng = () => number;

const FORMS = [
  { representation_id: 'reference', form_rank: 0, share: 0.03 },
  { representation_id: 'anchor', form_rank: 1, share: 0.12 },
  { representation_id: 'compact', form_rank: 2, share: 0.35 },
  { representation_id: 'full', form_rank: 3, share: 1 },
] as const;
const ROLES = ['state', 'evidence', 'evidence', 'evidence', 'support'] as const;
const WORDS =
  'migration tenant schema backend index replica rollout incident resolver config lock queue cache shard deploy audit token window budget trace policy claim exception observation revision'.split(
    ' ',
  );
const VOCABULARY = Array.from({ length: 24 }, (_, k) => `key-${String(k).padStart(2, '0')}`);

export interface GeneratedCase {
  readonly request: ContextRequest;
  readonly candidates: readonly ContextCandidate[];
  readonly ledger: CaseLedger;
  /** Tight, medium and roomy budgets for this pool. */
  readonly budgets: { readonly tight: number; readonly medium: number; readonly roomy: number };
}

const pick = <T>(rng: Rng, xs: readonly T[]): T => xs[Math.floor(rng() * xs.length)] as T;
const between = (rng: Rng, lo: number, hi: number) => lo + Math.floor(rng() * (hi - lo + 1));
const round2 = (x: number) => Math.round(x * 100) / 100;

function sentence(rng: Rng, words: number): string {
  return `${Array.from({ length: words }, () => pick(rng, WORDS)).join(' ')}.`;
}

interface Plan {
  readonly identity: string;
  readonly band: RequirementClass;
  readonly role: string;
  readonly truth: EvalClass;
  readonly forms: number;
  readonly floor: number;
  readonly relevance: number;
}

/** What kind of content comes next, and how the ledger will judge it. */
function plan(rng: Rng, k: number, groupBand: RequirementClass | null, mustShare: number): Plan {
  const identity = `ct-${String(k).padStart(5, '0')}`;
  if (k < 2) {
    return {
      identity,
      band: 'MANDATORY',
      role: k === 0 ? 'instruction' : 'task',
      truth: 'must',
      forms: 1,
      floor: 0,
      relevance: 1,
    };
  }
  const m = mustShare;
  const r =
    groupBand === 'REQUIRED'
      ? m * 0.9
      : groupBand === 'PREFERRED'
        ? m + 0.1
        : groupBand === 'DISCRETIONARY'
          ? 0.5
          : rng();
  const [band, truth]: [RequirementClass, EvalClass] =
    r < m / 3
      ? ['MANDATORY', 'must']
      : r < m
        ? ['REQUIRED', 'must']
        : r < m + 0.24
          ? ['PREFERRED', rng() < 0.8 ? 'should' : 'distractor']
          : [
              'DISCRETIONARY',
              pick(rng, ['should', 'optional', 'optional', 'distractor', 'distractor', 'harmful'] as const),
            ];
  const relevance = truth === 'distractor' || truth === 'harmful' ? 0.3 + 0.6 * rng() : rng();
  return {
    identity,
    band,
    role: band === 'MANDATORY' ? 'instruction' : pick(rng, ROLES),
    truth,
    forms: between(rng, 1, 4),
    floor: rng() < 0.15 ? between(rng, 2, 3) : 0,
    relevance: round2(relevance),
  };
}

function candidate(
  id: string,
  over: Partial<ContextCandidate> & Pick<ContextCandidate, 'content_identity'>,
): ContextCandidate {
  return {
    schema_version: SCHEMA.candidate,
    candidate_id: id,
    representation_id: 'full',
    form_rank: 3,
    min_rank: 0,
    source_kind: 'synthetic-generated',
    source_ref: 'ctxbench-generate',
    kind: 'evidence',
    content: '',
    token_count: 0,
    token_source: 'generated',
    requirement: 'DISCRETIONARY',
    order_role: 'evidence',
    scope_eligible: true,
    scope_reason: 'in scope',
    freshness_eligible: true,
    freshness_reason: 'validated current',
    authority_eligible: true,
    authority_reason: 'data',
    depends_on: [],
    group_id: null,
    group_required: false,
    coverage_keys: [],
    relevance: 0,
    is_default_form: false,
    ...over,
  };
}

/** One synthetic case of about `size` candidates. */
export function generateCase(seed: string, size: number, name = 'generated'): GeneratedCase {
  const rng = seedrandom(seed);
  const candidates: ContextCandidate[] = [];
  const truth: Record<string, IdentityTruth> = {};
  // A few shared tools, and never more than leave room for the instruction and the task.
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
  // Must content does not grow with the pool: a few dozen items at most, whatever its size.
  const mustShare = Math.min(0.06, 40 / size);
  let groupNo = 0;
  let pendingGroup: { id: string; band: RequirementClass; left: number } | null = null;
  for (let k = 0; candidates.length < size; k++) {
    const p = plan(rng, k, pendingGroup?.band ?? null, mustShare);
    const full = between(rng, 120, 900);
    const forms = FORMS.slice(4 - p.forms);
    const defaultRank = forms.length > 1 && rng() < 0.6 ? forms[forms.length - 2]?.form_rank : 3;
    let group: string | null = null;
    if (pendingGroup) {
      group = pendingGroup.id;
      if (--pendingGroup.left === 0) pendingGroup = null;
    } else if (k >= 2 && p.band !== 'MANDATORY' && rng() < 0.04) {
      group = `grp-${groupNo++}`;
      pendingGroup = { id: group, band: p.band, left: between(rng, 1, 2) };
    }
    for (const f of forms) {
      if (candidates.length >= size) break;
      const id = `${p.identity}-${f.representation_id}`;
      // About one optional candidate in ten fails each gate; must content rarely does, and the
      // instruction and the task never, so most cases stay feasible and refusals stay meaningful.
      const rate = k < 2 ? 0 : p.band === 'MANDATORY' || p.band === 'REQUIRED' ? 0.03 : 0.1;
      const roll = rng();
      const failed =
        roll < rate ? 'scope' : roll < 2 * rate ? 'freshness' : roll < 3 * rate ? 'authority' : null;
      const tokens = Math.max(5, Math.round(full * f.share));
      const needsTool = tools.length > 0 && (f.form_rank === 0 || rng() < 0.04);
      candidates.push(
        candidate(id, {
          content_identity: p.identity,
          representation_id: f.representation_id,
          form_rank: f.form_rank,
          min_rank: p.floor,
          content: sentence(rng, Math.min(45, 6 + Math.round(tokens / 15))),
          token_count: tokens,
          requirement: p.band,
          order_role: p.role,
          scope_eligible: failed !== 'scope',
          scope_reason: failed === 'scope' ? 'scope: another project' : 'in scope',
          freshness_eligible: failed !== 'freshness',
          freshness_reason: failed === 'freshness' ? 'freshness: superseded' : 'validated current',
          authority_eligible: failed !== 'authority',
          authority_reason: failed === 'authority' ? 'authority: untrusted source' : 'data',
          depends_on: needsTool ? [pick(rng, tools)] : [],
          // Only the form the group names is a member; the group travels as one unit.
          group_id: group !== null && f.form_rank === (defaultRank ?? 3) ? group : null,
          group_required: group !== null && f.form_rank === (defaultRank ?? 3),
          coverage_keys:
            rng() < 0.3 ? [pick(rng, VOCABULARY), ...(rng() < 0.3 ? [pick(rng, VOCABULARY)] : [])] : [],
          relevance: round2(Math.min(1, Math.max(0, p.relevance + (f.form_rank - 3) * 0.05))),
          is_default_form: f.form_rank === (defaultRank ?? 3),
        }),
      );
    }
    const legalMin = forms.find((f) => f.form_rank >= Math.max(p.floor, 2)) ?? forms[forms.length - 1];
    truth[p.identity] = { eval_class: p.truth, min_representation: legalMin?.representation_id ?? 'full' };
  }
  addCycle(candidates, rng);
  // Written in id order, as a store that keys candidates by id would hand them over.
  candidates.sort(byCandidateId);
  const present = new Set(candidates.map((c) => c.content_identity));
  for (const identity of Object.keys(truth)) if (!present.has(identity)) delete truth[identity];
  const budgets = budgetsFor(candidates, truth);
  const request: ContextRequest = {
    schema_version: SCHEMA.request,
    request_id: `${name}-req`,
    task_id: `${name}-task`,
    usable_token_budget: budgets.medium,
    created_at: '2026-01-01T00:00:00Z',
    active_scope: 'synthetic-project-a',
    required_ids: [],
    policy_version: defaultPolicy().policy_version,
  };
  return {
    request,
    candidates,
    ledger: { expected: { success: true, reason: null }, identity_truth: truth },
    budgets,
  };
}

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

/** Budgets from the pool's own sizes: the must content plus a share of the should content. */
function budgetsFor(candidates: readonly ContextCandidate[], truth: Readonly<Record<string, IdentityTruth>>) {
  const cheapest = new Map<string, number>();
  for (const c of candidates) {
    const known = cheapest.get(c.content_identity);
    if (known === undefined || c.token_count < known) cheapest.set(c.content_identity, c.token_count);
  }
  const sumOf = (cls: EvalClass) =>
    [...cheapest].filter(([i]) => truth[i]?.eval_class === cls).reduce((s, [, n]) => s + n + 4, 0);
  const must = sumOf('must') + 4;
  const should = sumOf('should');
  return {
    tight: Math.round(must * 0.9 + should * 0.1),
    medium: Math.round(must * 1.1 + should * 0.4),
    roomy: Math.round(must * 1.3 + should * 1.2),
  };
}
