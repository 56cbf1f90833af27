/**
 * The two test tiers. `npm test` runs every behaviour at least once, on small inputs, and leaves
 * out the checks that committed artefacts are what the code makes now (drift checks: slow, as
 * they redo whole studies, and caught by the nightly run); `npm run test:full` sets
 * CTXBENCH_FULL=1 and runs everything, every variant and every loop in full.
 */
export const FULL = process.env.CTXBENCH_FULL === '1';

/** Runs of the heavy property suites: a fixed sample in the fast tier, all of it in the full one. */
export const runs = (fast: number, full: number): number => (FULL ? full : fast);

/** The full list under test:full, its first `fast` elements otherwise. */
export const sample = <T>(all: readonly T[], fast: number): readonly T[] => (FULL ? all : all.slice(0, fast));

/**
 * The full list under test:full; in the fast tier the elements at `k`, `k + n`, `k + 2n`, ...:
 * `n` tables given k = 0..n-1 share the variants out, each variant still run once.
 */
export const share = <T>(all: readonly T[], k: number, n: number): readonly T[] =>
  FULL ? all : all.filter((_, i) => i % n === k);
