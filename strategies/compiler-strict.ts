import { compileContext } from '../src/compiler/index.js';
import type { Strategy } from '../src/harness/kit.js';

/**
 * The compiler with `required_missing: "refuse"`: REQUIRED content without a legal form refuses
 * instead of going silently missing, and a required group is never split by promotion. Shows
 * what closing the reference's holes costs and gains.
 */
const compilerStrict: Strategy = {
  name: 'compiler-strict',
  description: 'the compiler under required_missing "refuse": no silent omission of REQUIRED content',
  assemble({ request, candidates, policy }) {
    const { bundle, result } = compileContext(request, candidates, { ...policy, required_missing: 'refuse' });
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

export default compilerStrict;
