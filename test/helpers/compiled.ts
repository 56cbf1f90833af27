import type { CompilationResult } from '../../src/compiler/index.js';
import type { Compiled, CompiledBundle, CompiledError, CompiledRefusal } from '../../src/harness/types.js';

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
