import seedrandom from 'seedrandom';
import { describe, expect, it } from 'vitest';
import { bundleToJSON, compileContext, resultToJSON } from '../../src/compiler/index.js';
import { requestAt } from '../../src/harness/corpus/index.js';
import { BUDGETS } from '../../src/harness/vocabulary.js';
import { corpus } from '../helpers/corpus.js';

const SEED = 'ctxbench-determinism-1';

function shuffled<T>(items: readonly T[], rng: () => number): T[] {
  const out = [...items];
  for (let k = out.length - 1; k > 0; k--) {
    const j = Math.floor(rng() * (k + 1));
    [out[k], out[j]] = [out[j] as T, out[k] as T];
  }
  return out;
}

describe(`input order does not matter (seed ${SEED})`, () => {
  const cases = corpus().cases.flatMap((c) => BUDGETS.map((b) => ({ name: `${c.name}/${b}`, c, b })));

  it.each(cases)('$name compiles to the same bytes from five shuffles', ({ name, c, b }) => {
    // A generator of its own, seeded by the case: its shuffles do not hang on which cases ran before.
    const rng = seedrandom(`${SEED}/${name}`);
    const request = requestAt(c, b);
    const bytes = (candidates: typeof c.candidates) => {
      const out = compileContext(request, candidates, corpus().policy);
      return JSON.stringify({
        bundle: out.bundle && bundleToJSON(out.bundle),
        result: resultToJSON(out.result),
      });
    };
    const reference = bytes(c.candidates);
    for (let k = 0; k < 5; k++) expect(bytes(shuffled(c.candidates, rng))).toBe(reference);
  });
});
