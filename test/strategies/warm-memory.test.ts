/**
 * A warm strategy process forgets its calls (issue 47): the shipped strategies that keep something
 * from one call to the next (aider-repomap's tags and rankings, bm25's index and the analyser's
 * memo) hold no more after many calls with new file names and large texts than after a few. Each
 * runs in a process of its own (test/helpers/warm-memory.ts) that measures its memory after a full
 * collection, after call WARM and after the last: growing with the calls, it would hold what the
 * calls between took, CALLS - WARM pools of MB megabytes each.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { pickStrategies } from '../../src/harness/hosts/index.js';
import { SHARED_HOST } from '../../src/harness/vocabulary.js';
import { runs } from '../helpers/arbitrary.js';
import { FULL } from '../helpers/tier.js';

const CALLS = runs(40, 100);
const WARM = 10;
/** Megabytes of text in each call's pool. */
const MB = runs(4, 10);
/**
 * What the process may gain between call WARM and the last: one call's texts. Each strategy keeps
 * its last calls' pools at most (aider-repomap four, bm25 one), the same number at call WARM as at
 * the last; remembering each call's texts would gain (CALLS - WARM) x MB, 120 MB and more.
 */
const BOUND = MB * 2 ** 20;

/** The memory in use, in bytes, after calls WARM and CALLS of `names` in one process. */
function measure(names: readonly string[]): { readonly warm: number; readonly end: number } {
  const files = pickStrategies(names).map((r) => r.file);
  const script = fileURLToPath(new URL('../helpers/warm-memory.ts', import.meta.url));
  const args = JSON.stringify({ files, calls: CALLS, at: [WARM, CALLS], mb: MB });
  const r = spawnSync(
    process.execPath,
    ['--expose-gc', '--import', import.meta.resolve('tsx/esm'), script, args],
    { encoding: 'utf8' },
  );
  expect(r.stderr).toBe('');
  expect(r.status).toBe(0);
  const at = JSON.parse(r.stdout) as Record<number, number>;
  const [warm, end] = [at[WARM] as number, at[CALLS] as number];
  const mb = (n: number) => (n / 2 ** 20).toFixed(1);
  console.log(`${names.join(', ')}: ${mb(warm)} MB after call ${WARM}, ${mb(end)} MB after call ${CALLS}`);
  return { warm, end };
}

describe(`a warm process, ${CALLS} calls of ${MB} MB with new file names`, () => {
  // The peer and its variant share the module, as they share a process in a study.
  it('aider-repomap and aider-repomap+gates keep no more after the last call than after the tenth', () => {
    const { warm, end } = measure(['aider-repomap', 'aider-repomap+gates']);
    expect(end - warm).toBeLessThan(BOUND);
  });

  it('bm25 keeps no more after the last call than after the tenth', () => {
    const { warm, end } = measure(['bm25']);
    expect(end - warm).toBeLessThan(BOUND);
  });

  // Every strategy a warm process may hold, in one process: a cache added to any of them later is
  // met here. The full tier only: it is the two above, and the rest, which keep nothing.
  it.runIf(FULL)('every shipped strategy that stays warm, together', () => {
    const { warm, end } = measure(SHARED_HOST);
    expect(end - warm).toBeLessThan(BOUND);
  });
});
