/**
 * The last level of `exact`'s objective: among the optimal bundles, the one whose sorted id list
 * is smallest (a list that is a prefix of another is smaller), asked of the integer program under
 * the rows that hold the optimum.
 */
import { type ContextCandidate, itemRenderCost } from '../../../compiler/index.js';
import type { Objective } from '../../types.js';
import { legalityProblems } from '../legality.js';
import { compareObjectives, objectiveOf } from '../objective.js';
import { type LpOutcome, type SolveLimits, solveLp } from './highs.js';
import { BundleModel, passesGates } from './ilp.js';

/** The integer program of one model, solved with extra rows, counting its solves. */
export class Solver {
  solves = 0;
  readonly model: BundleModel;
  private readonly limits: SolveLimits;

  constructor(model: BundleModel, limits: SolveLimits) {
    this.model = model;
    this.limits = limits;
  }

  solve(
    sense: 'Maximize' | 'Minimize',
    objective: Parameters<BundleModel['text']>[1],
    extra: readonly string[],
  ): LpOutcome {
    this.solves++;
    return solveLp(this.model.text(sense, objective, extra), this.limits);
  }
}

/**
 * Among the optimal bundles, the one whose sorted id list is smallest. Usually the optimum is
 * unique and one solve shows it. Otherwise, when every candidate a bundle may hold costs
 * something, `lexSmallest` walks to the smallest; else ids are decided in id order: a prefix that
 * is itself an optimal bundle ends the list, or the next id is the smallest any optimal bundle
 * with that prefix can take.
 * Null when a limit stops a solve.
 */
export function smallestIdList(
  solver: Solver,
  start: readonly string[],
  best: Objective,
  held: readonly string[],
): string[] | null {
  const { model } = solver;
  const input = model.input;
  const x = (id: string) => model.x(id);
  const inStart = new Set(start);
  const others = model.sorted
    .filter((c) => !inStart.has(c.candidate_id) && passesGates(c))
    .map((c): [number, string] => [1, x(c.candidate_id)]);
  const costs = (c: ContextCandidate) => itemRenderCost(c, input.policy) > 0;
  const allCostly = model.sorted.every((c) => !passesGates(c) || costs(c));
  // Another optimal bundle either admits something `start` does not or is a strict subset of it.
  // When every item of `start` costs something, a subset costs less, which the cost level has
  // ruled out, so only the first kind needs asking: a much tighter row for the solver.
  const costly = allCostly || start.every((id) => costs(model.candidate(id)));
  const noGood = costly
    ? BundleModel.extraRow('other', others, '>=', 1)
    : BundleModel.extraRow(
        'other',
        [...others, ...start.map((id): [number, string] => [-1, x(id)])],
        '>=',
        1 - start.length,
      );
  const unique = solver.solve('Minimize', [], [...held, noGood]);
  if (unique.status === 'infeasible') return [...start];
  if (unique.status === 'limit') return null;
  if (allCostly) {
    const another = model.chosen(unique.values);
    return lexSmallest(solver, smaller(model, start, another), held);
  }
  const order = model.sorted.map((c) => c.candidate_id);
  const fixed: string[] = [];
  const prefix: string[] = [];
  let current = new Set(start);
  let next = 0;
  const optimal = (ids: readonly string[]) =>
    legalityProblems(input, ids).length === 0 && compareObjectives(objectiveOf(input, ids), best) === 0;
  for (;;) {
    if (optimal(prefix)) return prefix;
    const s = order.findIndex((id, k) => k >= next && current.has(id));
    if (s < 0) return prefix;
    const below = order.slice(next, s);
    if (below.length > 0) {
      const any = BundleModel.extraRow(
        'below',
        below.map((id): [number, string] => [1, x(id)]),
        '>=',
        1,
      );
      const answer = solver.solve('Minimize', [], [...held, ...fixed, any]);
      if (answer.status === 'limit') return null;
      if (answer.status === 'optimal') {
        current = new Set(model.chosen(answer.values));
        continue;
      }
      for (const id of below) fixed.push(BundleModel.extraRow(`no${fixed.length}`, [[1, x(id)]], '=', 0));
    }
    const id = order[s] as string;
    fixed.push(BundleModel.extraRow(`yes${fixed.length}`, [[1, x(id)]], '=', 1));
    prefix.push(id);
    next = s + 1;
  }
}

/**
 * Of two bundles neither of which holds the other, the one with the smaller sorted list: the one
 * holding the first candidate, in id order, that the other lacks.
 */
function smaller(model: BundleModel, a: readonly string[], b: readonly string[]): readonly string[] {
  const inA = new Set(a);
  const inB = new Set(b);
  const first = model.sorted.find((c) => inA.has(c.candidate_id) !== inB.has(c.candidate_id));
  return first === undefined || inA.has(first.candidate_id) ? a : b;
}

/**
 * When every candidate a bundle may hold costs something, no optimal bundle is a strict subset of
 * another (it would cost less), and of two optimal bundles the one holding the first candidate
 * the other lacks has the smaller sorted list. Then one solve asks whether any optimal bundle is
 * smaller than the current one, by that rule written as rows; each yes is a smaller bundle to ask
 * about next, and the first no proves the current one smallest.
 */
function lexSmallest(solver: Solver, start: readonly string[], held: readonly string[]): string[] | null {
  let current = [...start];
  for (;;) {
    const rows = smallerRows(solver.model, current);
    if (rows === null) return current;
    const answer = solver.solve('Minimize', [], [...held, ...rows]);
    if (answer.status === 'infeasible') return current;
    if (answer.status === 'limit') return null;
    current = solver.model.chosen(answer.values);
  }
}

/**
 * "A bundle whose sorted list is smaller than `current`'s", among bundles none of which holds
 * another: some candidate `current` lacks is held (w <= x) while every candidate before it agrees
 * with `current` (w <= a, where each a is at most the one before and at most x, or 1 - x, of the
 * candidate before). Ineligible candidates agree always and are left out, and only
 * candidates before `current`'s last can be the first difference: one after it would make a
 * superset. Null when there is no such candidate, so nothing is smaller.
 */
function smallerRows(model: BundleModel, current: readonly string[]): string[] | null {
  const holds = new Set(current);
  const free = model.sorted.map((c, k) => [c, k] as const).filter(([c]) => passesGates(c));
  const last = free.findLastIndex(([c]) => holds.has(c.candidate_id));
  const rows: string[] = [];
  const first: [number, string][] = [];
  free.slice(0, Math.max(0, last)).forEach(([c, k], f) => {
    const x = `x${k}`;
    const held = holds.has(c.candidate_id);
    if (!held) {
      first.push([1, `lt${f}`]);
      rows.push(
        BundleModel.extraRow(
          `ltx${f}`,
          [
            [1, `lt${f}`],
            [-1, x],
          ],
          '<=',
          0,
        ),
      );
      if (f > 0)
        rows.push(
          BundleModel.extraRow(
            `lta${f}`,
            [
              [1, `lt${f}`],
              [-1, `ag${f}`],
            ],
            '<=',
            0,
          ),
        );
    }
    // ag(f+1): the bundle agrees with `current` on every free candidate up to the f-th.
    rows.push(
      BundleModel.extraRow(
        `agx${f}`,
        [
          [1, `ag${f + 1}`],
          [held ? -1 : 1, x],
        ],
        '<=',
        held ? 0 : 1,
      ),
    );
    if (f > 0)
      rows.push(
        BundleModel.extraRow(
          `agc${f}`,
          [
            [1, `ag${f + 1}`],
            [-1, `ag${f}`],
          ],
          '<=',
          0,
        ),
      );
  });
  if (first.length === 0) return null;
  rows.push(BundleModel.extraRow('smaller', first, '>=', 1));
  return rows;
}
