import { compileContext, type Strategy, selectionOf } from '../src/harness/kit/index.js';

/**
 * The Context Compiler (the study's `staged`), through the same interface as every strategy.
 * Its own trace and refusal record travel with the selection, so the harness rebuilds exactly
 * the result the engine produced.
 */
const compiler: Strategy = {
  name: 'compiler',
  description:
    'the deterministic Context Compiler: hard gates, classes, priced closure, groups, named refusal',
  assemble: ({ request, candidates, policy }) => selectionOf(compileContext(request, candidates, policy)),
};

export default compiler;
