/**
 * ctxbench's `mandatory_form: "planned"` (docs/compiler.md §17.5), in place of the MANDATORY and
 * REQUIRED stages: the forms of all required content are chosen together before anything is
 * admitted, then moved to cheaper forms while that saves tokens: one content at a time, and a
 * shared dependency that several contents' cheaper forms need, taken once for all of them. The
 * plan is admitted only when it fits; otherwise the refusal says what would have to give. No
 * search: every pass is a fixed walk over the demands, and the passes are bounded.
 */
import type { CompileState } from '../state.js';
import { type Demand, demandsOf } from './plan/demands.js';
import { Plan } from './plan/plan.js';
import { refuse, type StageRefusal } from './refusal.js';

const ROUNDS = 4;

export function plannedStage(s: CompileState): StageRefusal | null {
  const demands = demandsOf(s);
  if (!Array.isArray(demands)) return demands;
  const plan = new Plan(s);
  for (const d of demands) {
    if (d.kind !== 'content') {
      const option = d.options[0];
      if (option === undefined) continue;
      const block = plan.conflict(option.closure);
      if (block) return refuse('UNSATISFIED_DEPENDENCY', option.roots, `required form blocked: ${block}`);
      plan.add(option.closure);
      d.chosen = 0;
    }
  }
  const contents = demands
    .filter((d) => d.kind === 'content')
    .sort((a, b) => a.options.length - b.options.length || (a.name < b.name ? -1 : 1));
  for (const d of contents) {
    if (!choose(plan, d)) {
      const block = d.options.map((o) => plan.conflict(o.closure)).find((b) => b !== '') ?? '';
      return refuse('UNSATISFIED_DEPENDENCY', [d.name], `${d.cls.toLowerCase()} ${d.name} blocked: ${block}`);
    }
  }
  improve(s, plan, contents);
  // The first item of an empty bundle has no separator before it.
  const need = plan.cost - (s.rendered && plan.size > 0 && s.admitted.size === 0 ? s.separator : 0);
  if (need > s.remaining) return overBudget(s, plan, demands, need);
  commit(s, demands);
  return null;
}

/** Hold the cheapest option that fits the plan (the current one on a tie); false when none does. */
function choose(plan: Plan, d: Demand): boolean {
  let best = -1;
  let bestCost = Number.POSITIVE_INFINITY;
  const order = d.chosen >= 0 ? [d.chosen, ...d.options.keys()] : [...d.options.keys()];
  for (const k of order) {
    const option = d.options[k];
    if (option === undefined || plan.conflict(option.closure) !== '') continue;
    const cost = plan.addCost(option.closure);
    if (cost < bestCost) {
      best = k;
      bestCost = cost;
    }
  }
  if (best < 0) return false;
  plan.add((d.options[best] as (typeof d.options)[number]).closure);
  d.chosen = best;
  return true;
}

/** Let each content choose again with the others fixed; true when the plan got cheaper. */
function switchPass(plan: Plan, contents: readonly Demand[]): boolean {
  const before = plan.cost;
  for (const d of contents) {
    const held = d.options[d.chosen];
    if (held === undefined) continue;
    plan.remove(held.closure);
    choose(plan, d);
  }
  return plan.cost < before;
}

/**
 * A dependency that cheaper forms of several contents share costs too much for any one of them
 * alone: hold it for a moment, let every content choose again, and keep the result if the plan
 * is cheaper.
 */
function sharedPass(s: CompileState, plan: Plan, contents: readonly Demand[]): boolean {
  const users = new Map<string, number>();
  for (const d of contents)
    for (const option of d.options)
      for (const id of option.closure.slice(1)) if (!plan.holds(id)) users.set(id, (users.get(id) ?? 0) + 1);
  let improved = false;
  for (const id of [...users.keys()].filter((x) => (users.get(x) ?? 0) > 1).sort()) {
    if (plan.holds(id)) continue;
    const shared = s.pool.unitClosure(id);
    if (plan.conflict(shared) !== '') continue;
    const restore = plan.snapshot();
    const chosen = contents.map((d) => d.chosen);
    const before = plan.cost;
    plan.add(shared);
    switchPass(plan, contents);
    plan.remove(shared);
    if (plan.cost < before) {
      improved = true;
      continue;
    }
    restore();
    contents.forEach((d, k) => {
      d.chosen = chosen[k] as number;
    });
  }
  return improved;
}

function improve(s: CompileState, plan: Plan, contents: readonly Demand[]): void {
  for (let round = 0; round < ROUNDS; round++) {
    const switched = switchPass(plan, contents);
    const shared = sharedPass(s, plan, contents);
    if (!switched && !shared) return;
  }
}

/** The refusal when the cheapest plan found does not fit: the dearest demands would have to give. */
function overBudget(s: CompileState, plan: Plan, demands: readonly Demand[], need: number): StageRefusal {
  const dear = demands
    .map((d) => {
      const option = d.options[d.chosen];
      return { d, option, cost: option ? plan.freeCost(option.closure) : 0 };
    })
    .sort((a, b) => b.cost - a.cost || (a.d.name < b.d.name ? -1 : 1))
    .slice(0, 3);
  const list = dear.map(
    (x) => `${x.d.cls.toLowerCase()} ${x.d.name} (${x.option?.roots.join(' ')}: ${x.cost})`,
  );
  const over = need - s.remaining;
  // What the budget already carries before the plan: the header, under rendered pricing.
  const budget = s.pool.request.usable_token_budget;
  const frame = budget - s.remaining;
  const room =
    frame === 0
      ? `${over} over the ${s.remaining} left`
      : s.remaining >= 0
        ? `${over} over the ${s.remaining} the budget of ${budget} leaves after the header's ${frame}`
        : `and the header's ${frame} is already ${-s.remaining} over the budget of ${budget}`;
  const dearest = s.rendered ? 'the dearest, each with the separator before it' : 'the dearest';
  return refuse(
    'INSUFFICIENT_BUDGET',
    dear.map((x) => x.d.name),
    `required content needs ${need} in the cheapest legal forms found, ${room}; ${dearest}: ${list.join(', ')}`,
  );
}

/** Admit the plan: named candidates, then contents, each with its closure. */
function commit(s: CompileState, demands: readonly Demand[]): void {
  for (const d of demands) {
    const option = d.options[d.chosen];
    if (option === undefined) continue;
    const priced = s.price(option.roots);
    if (priced.nodes.length === 0) continue;
    s.commit(priced, d.cls === 'MANDATORY' ? 'mandatory' : 'required', option.roots);
  }
}
