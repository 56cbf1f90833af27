import { compileContext, type Strategy, selectionOf } from '../src/harness/kit/index.js';

/**
 * The Context Compiler with ctxbench's settings (docs/compiler.md §17.5): every admission priced
 * at what it adds to the rendered bundle, the forms of all required content planned together and
 * moved to cheaper ones before anything gives, and refuse mode, so it never ships an illegal or
 * incomplete bundle and refuses only when required content cannot fit in any legal forms it finds.
 */
const compilerV2: Strategy = {
  name: 'compiler-v2',
  description:
    'the compiler priced at rendered cost, required forms planned together, refuse mode: refuses only when it must',
  assemble: ({ request, candidates, policy }) =>
    selectionOf(
      compileContext(request, candidates, {
        ...policy,
        pricing: 'rendered',
        mandatory_form: 'planned',
        required_missing: 'refuse',
      }),
    ),
};

export default compilerV2;
