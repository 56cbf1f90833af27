import { compileContext, type Strategy, selectionOf } from '../src/harness/kit/index.js';

/**
 * The compiler with `required_missing: "refuse"`: REQUIRED content without a legal form refuses
 * instead of going silently missing, and a required group is never split by promotion. Shows
 * what closing the reference's holes costs and gains.
 */
const compilerStrict: Strategy = {
  name: 'compiler-strict',
  description: 'the compiler under required_missing "refuse": no silent omission of REQUIRED content',
  assemble: ({ request, candidates, policy }) =>
    selectionOf(compileContext(request, candidates, { ...policy, required_missing: 'refuse' })),
};

export default compilerStrict;
