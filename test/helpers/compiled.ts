/**
 * A strategy's answer as the harness measures it, in this thread, and the compilation read as
 * the outcome a test expects.
 */
import type { CompilationResult } from '../../src/compiler/index.js';
// The synchronous form of the study folder's `compileAwaited`: the same guard and the same
// ruler, for a test that runs a strategy inside a loop, a property or a map.
import { compileWith } from '../../src/harness/session/measure-answer.js';
import type {
  Compiled,
  CompiledBundle,
  CompiledError,
  CompiledRefusal,
  Strategy,
  StrategyInput,
} from '../../src/harness/types.js';

/**
 * `strategy` run on `input` as a study runs it in its thread (the input frozen, the answer
 * copied out and measured); a strategy that answers only by a promise gives an error row here.
 */
export const measured = (strategy: Strategy, input: StrategyInput): Compiled => compileWith(strategy, input);

const what = (out: Compiled) =>
  out.outcome === 'bundle'
    ? 'a bundle'
    : out.outcome === 'refusal'
      ? `a refusal (${out.reason})`
      : `an error (${out.message})`;

/** The compilation as a bundle; fails the test when it is anything else. */
export function asBundle(out: Compiled): CompiledBundle {
  if (out.outcome !== 'bundle') throw new Error(`expected a bundle, got ${what(out)}`);
  return out;
}

export function asRefusal(out: Compiled): CompiledRefusal {
  if (out.outcome !== 'refusal') throw new Error(`expected a refusal, got ${what(out)}`);
  return out;
}

export function asError(out: Compiled): CompiledError {
  if (out.outcome !== 'error') throw new Error(`expected an error row, got ${what(out)}`);
  return out;
}

/** The v2 result of a bundle or a refusal; fails the test on an error row. */
export function recordOf(out: Compiled): CompilationResult {
  if (out.outcome === 'error') throw new Error(`expected a compilation, got ${what(out)}`);
  return out.record;
}
