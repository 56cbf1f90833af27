import type { CompileOutput } from '../../compiler/index.js';
import type { Selection } from '../types.js';

/**
 * A compilation as a selection: the bundle's ids, or the refusal with its blocking ids, its
 * diagnostic and the budget it had used; the engine's trace travels along, so the harness
 * rebuilds exactly the result the engine produced.
 */
export function selectionOf(output: CompileOutput): Selection {
  const trace = output.result.trace.entries;
  if (output.bundle !== null) return { admitted: output.bundle.items.map((i) => i.id), trace };
  const f = output.result.failure;
  return {
    refusal: {
      reason: f.reason,
      blocking_ids: f.blocking_ids,
      diagnostic: f.diagnostic,
      budget_used: f.budget_used,
    },
    trace,
  };
}
