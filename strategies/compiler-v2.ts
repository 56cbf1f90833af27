import { certified, compileContext, type WaitingStrategy, withRanking } from '../src/harness/kit/index.js';

/**
 * The Context Compiler with ctxbench's settings (docs/compiler.md §17.5): every admission priced
 * at what it adds to the rendered bundle, the forms of all required content planned together and
 * moved to cheaper ones before anything gives, and refuse mode, so it never ships an illegal or
 * incomplete bundle. Its answer is then certified by `exact`'s engines under a work limit: a
 * refusal stands only with a proof that no legal bundle exists (or says it is unproven), and a
 * bundle stands unless the solver finds a better one, with its gap to the best (`extras.gap`).
 * It publishes the relevance ranking its objective reads (`extras.ranked`).
 */
const compilerV2: WaitingStrategy = {
  name: 'compiler-v2',
  description:
    'the compiler priced at rendered cost, required forms planned together, refuse mode, certified: refuses only with a proof',
  assemble: (input) =>
    withRanking(
      input,
      certified(
        input,
        compileContext(input.request, input.candidates, {
          ...input.policy,
          pricing: 'rendered',
          mandatory_form: 'planned',
          required_missing: 'refuse',
        }),
      ),
    ),
};

export default compilerV2;
