/**
 * A tiered-memory context compiler, modelled on the documentation page of an agent-memory
 * library's `compile_context` (summarised in docs/sources.md, "The tiered-memory compiler"):
 * a fixed head that is never dropped, then recent turns (R), live context (T6), narrative (T5),
 * episodic (T3) and semantic (T4) memory. Under budget pressure whole tiers are shed, T4 first,
 * then T3, T5, T6; R is never shed whole, but as a last resort its lowest-priority items are
 * trimmed (reported as compaction, `T1` among the dropped). If the head alone does not fit, it
 * refuses. Like that system it applies no eligibility gates and knows no dependencies or groups:
 * it is measured as it is.
 */
import { byCandidateId, type ContextCandidate, renderedIncrement } from '../../compiler/index.js';
import type { Selection, StrategyInput } from '../types.js';
import { costOf } from './ruler.js';
import { selectionTrace, type Why } from './strategy-trace.js';

export const TIERS = ['head', 'R', 'T6', 'T5', 'T3', 'T4'] as const;
export type Tier = (typeof TIERS)[number];
export const MODES = ['conversation', 'task', 'recall'] as const;
export type Mode = (typeof MODES)[number];

/** Shed first to last; R is never shed whole. */
const SHED_ORDER: readonly Tier[] = ['T4', 'T3', 'T5', 'T6'];

/**
 * Items retrieved per memory tier in each mode (head, R and T6 are taken whole). The docs give no
 * numbers, only the shape: conversation is balanced, task favours session-scoped episodic recall
 * (T3), recall favours cross-session narrative (T5). These depths are ours.
 */
export const DEPTHS: Readonly<Record<Mode, Readonly<Record<'T5' | 'T3' | 'T4', number>>>> = {
  conversation: { T5: 4, T3: 4, T4: 4 },
  task: { T5: 2, T3: 8, T4: 2 },
  recall: { T5: 8, T3: 2, T4: 2 },
};

/**
 * Which tier a candidate lives in, first rule that matches:
 * 1. its own `tier` annotation (`head`, `R`, `T6`, `T5`, `T3`, `T4`), when present;
 * 2. MANDATORY: head (system prompt, pins, execution state: never dropped);
 * 3. REQUIRED, or role `instruction` or `task`: R (the live conversation);
 * 4. role `state`: T6 (live system-of-record state);
 * 5. role `tool` or `support`: T4 (semantic memory);
 * 6. PREFERRED: T5 (narrative, curated across sessions);
 * 7. otherwise (DISCRETIONARY evidence): T3 (episodic).
 */
export function tierOf(c: ContextCandidate, annotations: StrategyInput['annotations']): Tier {
  const own = annotations?.get(c.candidate_id)?.tier;
  if (typeof own === 'string' && (TIERS as readonly string[]).includes(own)) return own as Tier;
  if (c.requirement === 'MANDATORY') return 'head';
  if (c.requirement === 'REQUIRED' || c.order_role === 'instruction' || c.order_role === 'task') return 'R';
  if (c.order_role === 'state') return 'T6';
  if (c.order_role === 'tool' || c.order_role === 'support') return 'T4';
  if (c.requirement === 'PREFERRED') return 'T5';
  return 'T3';
}

const byRelevance = (a: ContextCandidate, b: ContextCandidate) =>
  b.relevance - a.relevance || byCandidateId(a, b);

/** The strategy each mode is registered as, which its trace names. */
export const TIERED_NAMES: Readonly<Record<Mode, string>> = {
  conversation: 'tiered',
  task: 'tiered-task',
  recall: 'tiered-recall',
};

/**
 * Compile like the tiered system in one of its three modes. Its trace says why each candidate
 * is out: beyond its tier's depth, its tier shed, or trimmed from the recent turns; the system
 * applies no gates, so none is named.
 */
export function compileTiered(input: StrategyInput, mode: Mode): Selection {
  const tiers = new Map<Tier, ContextCandidate[]>(TIERS.map((t) => [t, []]));
  const why = new Map<string, Why>();
  for (const c of input.candidates) tiers.get(tierOf(c, input.annotations))?.push(c);
  for (const [tier, items] of tiers) {
    items.sort(byRelevance);
    if (tier !== 'T5' && tier !== 'T3' && tier !== 'T4') continue;
    const depth = DEPTHS[mode][tier];
    for (const c of items.splice(depth))
      why.set(c.candidate_id, { code: 'beyond-depth', detail: `${tier} keeps ${depth} in ${mode} mode` });
  }
  const head = tiers.get('head') as ContextCandidate[];
  const recent = tiers.get('R') as ContextCandidate[];
  const live = () => TIERS.flatMap((t) => tiers.get(t) as ContextCandidate[]);
  // The rendered cost is a sum: shedding a tier or trimming a turn subtracts from it.
  const start = live();
  let count = start.length;
  let cost = costOf(start, input);
  const remove = (items: readonly ContextCandidate[], reason: Why) => {
    for (const c of items) {
      cost -= renderedIncrement(c, --count, input.policy);
      why.set(c.candidate_id, reason);
    }
  };
  const dropped: string[] = [];
  for (const tier of SHED_ORDER) {
    if (cost <= input.budget) break;
    const items = tiers.get(tier) as ContextCandidate[];
    if (items.length === 0) continue;
    remove(items, { code: 'tier-shed', detail: `${tier} shed under budget pressure` });
    tiers.set(tier, []);
    dropped.push(tier);
  }
  let compaction = false;
  // Last resort: trim recent turns from the lowest priority up (the docs' compaction_triggered).
  while (cost > input.budget && recent.length > 0) {
    remove([recent.pop() as ContextCandidate], {
      code: 'compaction',
      detail: 'trimmed from the recent turns (R)',
    });
    compaction = true;
  }
  if (compaction) dropped.push('T1');
  const extras = { mode, dropped_tiers: dropped, compaction_triggered: compaction };
  if (cost > input.budget) {
    const diagnostic = `the fixed head alone renders ${cost} > budget ${input.budget}`;
    for (const c of live()) why.set(c.candidate_id, { code: 'head-overrun', detail: diagnostic });
    const trace = selectionTrace(input, [], TIERED_NAMES[mode], why);
    return {
      refusal: { reason: 'INSUFFICIENT_BUDGET', blocking_ids: head.map((c) => c.candidate_id), diagnostic },
      trace,
      extras,
    };
  }
  const admitted = live().map((c) => c.candidate_id);
  return { admitted, trace: selectionTrace(input, admitted, TIERED_NAMES[mode], why), extras };
}
