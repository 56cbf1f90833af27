/**
 * The optimum of the integer program (`ilp.ts`) for `exact`'s objective, as a sequence of solves:
 * the most earned PREFERRED relevance; holding that, the most DISCRETIONARY; holding both, the
 * least rendered cost; holding all three, the smaller sorted id list. Each level is held at the
 * value recomputed in plain arithmetic from the solution found, not at the solver's float.
 */
import { requiredGroupOf, requiredGroups } from '../../../compiler/index.js';
import type { StrategyInput } from '../../types.js';
import { requiredContents } from '../legality.js';
import { objectiveOf } from '../objective.js';
import { Detachable } from './detachable.js';
import { type SolveLimits, solveLp } from './highs.js';
import { BundleModel, RELEVANCE_SCALE, type Requirements } from './ilp.js';
import { Solver, smallestIdList } from './tie-break.js';

type Terms = BundleModel['costTerms'];

/**
 * How far a held level may fall, in the model's scaled units: what `exact` counts as a tie
 * (1e-9 of relevance), no more.
 */
const HOLD = 1e-9 * RELEVANCE_SCALE;

export type IlpAnswer =
  | { readonly status: 'optimal'; readonly ids: readonly string[]; readonly solves: number }
  | { readonly status: 'infeasible'; readonly solves: number }
  /** A limit stopped a solve: the best bundle known, if any, without a proof. */
  | { readonly status: 'limit'; readonly ids: readonly string[] | null; readonly solves: number };

/** The requirements of a strategy input: its required contents, its named ids, its budget. */
export const requirementsOf = (input: StrategyInput): Requirements => ({
  contents: new Set(requiredContents(input)),
  named: new Set(input.request.required_ids),
  budget: input.budget,
});

/** The least rendered cost of a bundle meeting the requirements, or Infinity when none does. */
export function minimumCost(
  input: StrategyInput,
  req: Requirements,
  limits: SolveLimits,
): { readonly cost: number; readonly proven: boolean } {
  const model = new BundleModel(input, req);
  const out = solveLp(model.text('Minimize', model.costTerms), limits);
  if (out.status === 'infeasible') return { cost: Number.POSITIVE_INFINITY, proven: true };
  if (out.values === null) return { cost: Number.POSITIVE_INFINITY, proven: false };
  const cost = objectiveOf(input, model.chosen(out.values)).rendered_cost;
  return { cost, proven: out.status === 'optimal' };
}

/**
 * The least rendered cost of any legal bundle, whatever the budget (Infinity when none exists).
 * Only the required contents' forms and what they bring can be in the cheapest bundle, so the
 * program sees just those: a few dozen columns even in a pool of a hundred thousand.
 */
export function leastLegalCost(
  input: StrategyInput,
  limits: SolveLimits,
): { readonly cost: number; readonly proven: boolean } {
  const req = { ...requirementsOf(input), budget: Number.POSITIVE_INFINITY };
  const lookup = new Map(input.candidates.map((c) => [c.candidate_id, c]));
  const groups = requiredGroups(input.candidates);
  const keep = new Set<string>();
  const pending = [
    ...input.candidates.filter((c) => req.contents.has(c.content_identity)).map((c) => c.candidate_id),
    ...req.named,
  ];
  for (let id = pending.pop(); id !== undefined; id = pending.pop()) {
    const c = lookup.get(id);
    if (c === undefined || keep.has(id)) continue;
    keep.add(id);
    pending.push(...c.depends_on);
    const g = requiredGroupOf(c);
    if (g !== null) pending.push(...(groups.get(g) ?? []).map((m) => m.candidate_id));
  }
  const candidates = input.candidates.filter((c) => keep.has(c.candidate_id));
  return minimumCost({ ...input, candidates }, req, limits);
}

/** `exact`'s optimum through the integer program. */
export function optimise(input: StrategyInput, limits: SolveLimits): IlpAnswer {
  const req = requirementsOf(input);
  const solver = new Solver(new BundleModel(input, req), limits);
  const { model } = solver;
  const held: string[] = [];
  /** The bundle of the last level solved: it satisfies every row held since. */
  let found: string[] | null = null;
  /** One level under the rows held so far: its bundle, or the answer when the solve ends there. */
  const level = (
    sense: 'Maximize' | 'Minimize',
    objective: Terms,
  ): { ids: string[] } | { end: IlpAnswer } => {
    const out = solver.solve(sense, objective, held);
    if (out.status === 'optimal') {
      found = model.chosen(out.values);
      return { ids: found };
    }
    // Only the first level can prove that no legal bundle exists. Below it the bundle of the level
    // above satisfies every held row, so "infeasible" is the solver's numerics (a held row over
    // many fractional relevances, its right-hand side in the millions), not a proof: the answer
    // is that bundle, unproven.
    if (out.status === 'infeasible')
      return {
        end:
          found === null
            ? { status: 'infeasible', solves: solver.solves }
            : { status: 'limit', ids: found, solves: solver.solves },
      };
    return {
      end: { status: 'limit', ids: out.values && model.chosen(out.values), solves: solver.solves },
    };
  };
  const hold = (name: string, terms: Terms, sense: '>=' | '<=', value: number) =>
    held.push(BundleModel.extraRow(name, terms, sense, value));
  // Solved even when nothing earns preferred relevance: it finds a legal bundle, or proves none.
  const first = level('Maximize', model.preferredTerms);
  if ('end' in first) return first.end;
  let ids = first.ids;
  if (model.preferredTerms.length > 0)
    hold('holdP', model.preferredTerms, '>=', objectiveOf(input, ids).preferred * RELEVANCE_SCALE - HOLD);
  const detachable = new Detachable(model, req);
  let noDiscretionary = model.discretionaryTerms.length === 0;
  let cheapest: string[] | null = null;
  if (!noDiscretionary) {
    // The cheapest bundle holding the preferred optimum. When no discretionary earner fits beside
    // it, the discretionary optimum is 0, and that bundle is also the cost level's: one solve
    // where the discretionary level, the hardest of the three, would take two.
    const c = level('Minimize', model.costTerms);
    if ('end' in c) return c.end;
    noDiscretionary = detachable.noDiscretionaryFits(objectiveOf(input, c.ids).rendered_cost, input.budget);
    if (noDiscretionary) cheapest = c.ids;
    else {
      const d = level('Maximize', model.discretionaryTerms);
      if ('end' in d) return d.end;
      ids = d.ids;
      const value = objectiveOf(input, ids).discretionary * RELEVANCE_SCALE - HOLD;
      hold('holdD', model.discretionaryTerms, '>=', value);
    }
  }
  if (cheapest === null) {
    const c = level('Minimize', model.costTerms);
    if ('end' in c) return c.end;
    cheapest = c.ids;
  }
  ids = cheapest;
  const best = objectiveOf(input, ids);
  // The tie-break asks only about optimal bundles, and none holds what `kept` leaves out: its own
  // model, over what is left, is the same question with a fraction of the columns.
  const tie = new Solver(
    new BundleModel({ ...input, candidates: detachable.kept(noDiscretionary) }, req),
    limits,
  );
  const tieHeld = [
    ...(tie.model.preferredTerms.length > 0
      ? [
          BundleModel.extraRow(
            'holdP',
            tie.model.preferredTerms,
            '>=',
            best.preferred * RELEVANCE_SCALE - HOLD,
          ),
        ]
      : []),
    ...(noDiscretionary
      ? []
      : [
          BundleModel.extraRow(
            'holdD',
            tie.model.discretionaryTerms,
            '>=',
            best.discretionary * RELEVANCE_SCALE - HOLD,
          ),
        ]),
    BundleModel.extraRow('holdC', tie.model.costTerms, '<=', best.rendered_cost - tie.model.frame),
  ];
  const tied = smallestIdList(tie, ids, best, tieHeld);
  const solves = solver.solves + tie.solves;
  if (tied === null) return { status: 'limit', ids, solves };
  return { status: 'optimal', ids: tied, solves };
}
