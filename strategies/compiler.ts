import { compileContext } from '../src/compiler/index.js';
import type { Strategy } from '../src/harness/kit.js';

/**
 * The Context Compiler (the study's `staged`), through the same interface as every strategy.
 * Its own trace and refusal record travel with the selection, so the harness rebuilds exactly
 * the result the engine produced.
 */
const compiler: Strategy = {
  name: 'compiler',
  description:
    'the deterministic Context Compiler: hard gates, classes, priced closure, groups, named refusal',
  assemble({ request, candidates, policy }) {
    const { bundle, result } = compileContext(request, candidates, policy);
    const trace = result.trace.entries;
    if (bundle !== null) return { admitted: bundle.items.map((i) => i.id), trace };
    const f = result.failure;
    return {
      refusal: {
        reason: f.reason,
        blocking_ids: f.blocking_ids,
        diagnostic: f.diagnostic,
        budget_used: f.budget_used,
      },
      trace,
    };
  },
};

export default compiler;
