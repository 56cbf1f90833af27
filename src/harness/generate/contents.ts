/**
 * One generated content and its forms: the plan of what kind of content comes next and how the
 * ledger will judge it, each form as a candidate, and required groups of contents in a row. Every
 * draw from the seeded generator comes in a fixed order: the bytes of a corpus depend on it.
 */
import type { ContextCandidate, RequirementClass } from '../../compiler/index.js';
import { SCHEMA } from '../../compiler/index.js';
import type { EvalClass } from '../types.js';

export type Rng = () => number;

export const FORMS = [
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

export const pick = <T>(rng: Rng, xs: readonly T[]): T => xs[Math.floor(rng() * xs.length)] as T;
export const between = (rng: Rng, lo: number, hi: number) => lo + Math.floor(rng() * (hi - lo + 1));
export const round2 = (x: number) => Math.round(x * 100) / 100;

export function sentence(rng: Rng, words: number): string {
  return `${Array.from({ length: words }, () => pick(rng, WORDS)).join(' ')}.`;
}

export interface Plan {
  readonly identity: string;
  readonly band: RequirementClass;
  readonly role: string;
  readonly truth: EvalClass;
  readonly forms: number;
  readonly floor: number;
  readonly relevance: number;
}

/** What kind of content comes next, and how the ledger will judge it. */
export function planContent(
  rng: Rng,
  k: number,
  groupBand: RequirementClass | null,
  mustShare: number,
): Plan {
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

export function candidate(
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

/** The content being written and what its forms share. */
export interface Content {
  readonly k: number;
  readonly plan: Plan;
  /** The full form's size; the others are shares of it. */
  readonly full: number;
  /** The form that is the default (a group names the full form). */
  readonly defaultRank: number;
  readonly group: string | null;
  readonly tools: readonly string[];
}

/** One form of a content. The draws from `rng` come in a fixed order: the bytes depend on it. */
export function formOf(rng: Rng, content: Content, f: (typeof FORMS)[number]): ContextCandidate {
  const { k, plan: p, group, defaultRank, tools } = content;
  // About one optional candidate in ten fails each gate; must content rarely does, and never in
  // its full form (which no floor rules out), nor the instruction and the task: every pool then
  // has a legal bundle at some budget, and a refusal means the budget, not the pool.
  const must = p.band === 'MANDATORY' || p.band === 'REQUIRED';
  const rate = k < 2 || (must && f.form_rank === 3) ? 0 : must ? 0.03 : 0.1;
  const roll = rng();
  const failed = roll < rate ? 'scope' : roll < 2 * rate ? 'freshness' : roll < 3 * rate ? 'authority' : null;
  const tokens = Math.max(5, Math.round(content.full * f.share));
  const needsTool = tools.length > 0 && (f.form_rank === 0 || rng() < 0.04);
  const isDefault = f.form_rank === defaultRank;
  return candidate(`${p.identity}-${f.representation_id}`, {
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
    // Only the full form is a member; the group travels as one unit.
    group_id: group !== null && f.form_rank === 3 ? group : null,
    group_required: group !== null && f.form_rank === 3,
    coverage_keys:
      rng() < 0.3 ? [pick(rng, VOCABULARY), ...(rng() < 0.3 ? [pick(rng, VOCABULARY)] : [])] : [],
    relevance: round2(Math.min(1, Math.max(0, p.relevance + (f.form_rank - 3) * 0.05))),
    is_default_form: isDefault,
  });
}

/** Required groups of two or three contents in a row: which group, if any, this content joins. */
export class Groups {
  private next = 0;
  private pending: { id: string; band: RequirementClass; left: number } | null = null;

  get band(): RequirementClass | null {
    return this.pending?.band ?? null;
  }

  join(rng: Rng, k: number, band: RequirementClass): string | null {
    if (this.pending) {
      const id = this.pending.id;
      if (--this.pending.left === 0) this.pending = null;
      return id;
    }
    if (k < 2 || band === 'MANDATORY' || rng() >= 0.04) return null;
    const id = `grp-${this.next++}`;
    this.pending = { id, band, left: between(rng, 1, 2) };
    return id;
  }
}
