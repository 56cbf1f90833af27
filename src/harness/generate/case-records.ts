/**
 * Synthetic cases with the shape of real candidate pools, from a seed (seedrandom): contents in
 * one to four forms with floors, few MANDATORY and REQUIRED contents and many optional ones,
 * about one candidate in ten failing each gate, references that need one of a few shared
 * expensive tools, a few dependency cycles, required groups of two or three, coverage keys from a
 * small vocabulary, relevance over [0, 1]. The ledger follows from how each content was made.
 * Same seed, same bytes.
 */
import seedrandom from 'seedrandom';
import type { ContextCandidate } from '../../compiler/index.js';
import type { IdentityTruth, Profile } from '../types.js';
import { generateAgentCase } from './agent.js';
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
} from './contents.js';
import { finishCase, type GeneratedCase } from './finish.js';

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

/** One synthetic case of about `size` candidates, of the given shape. */
export function generateCase(
  seed: string,
  size: number,
  name = 'generated',
  profile: Profile = 'mixed',
): GeneratedCase {
  return profile === 'agent' ? generateAgentCase(seed, size, name) : generateMixedCase(seed, size, name);
}

/** The mixed shape: see the module comment. */
function generateMixedCase(seed: string, size: number, name: string): GeneratedCase {
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
    const must = plan.band === 'MANDATORY' || plan.band === 'REQUIRED';
    for (const [j, f] of forms.entries()) {
      if (candidates.length >= size) break;
      // The pool's last slot, if must content gets it, goes to the full form, which nothing rules
      // out: a pool cut short must not leave required content without a legal form.
      const full = forms[forms.length - 1] as typeof f;
      const form = must && candidates.length === size - 1 && j < forms.length - 1 ? full : f;
      candidates.push(formOf(rng, content, form));
      if (form !== f) break;
    }
    const legalMin = forms.find((f) => f.form_rank >= Math.max(plan.floor, 2)) ?? forms[forms.length - 1];
    truth[plan.identity] = {
      eval_class: plan.truth,
      min_representation: legalMin?.representation_id ?? 'full',
    };
  }
  addCycle(candidates, rng);
  return finishCase(name, candidates, truth);
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
