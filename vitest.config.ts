import { availableParallelism, tmpdir } from 'node:os';
import path from 'node:path';
import { defineConfig } from 'vitest/config';

// CI asks for the counts from vitest's JSON reporter; the file is written only when asked for.
const jsonReport = process.env.CTXBENCH_JSON_REPORT;

/**
 * Files with a module graph of their own: those that replace modules (`vi.mock`,
 * `vi.resetModules`), and the command suites of test/cli, whose processes and studies make
 * loading the sources again for each file cost nothing beside them. The rest share one graph
 * per worker, which saves about half of a small file's time (docs/performance.md, "Test suite").
 */
const ISOLATED = [
  'test/cli/**/*.test.ts',
  'test/compiler/overhead-tokenizer.test.ts',
  'test/harness/generate/generate.test.ts',
  'test/harness/corpus/real-tokens.test.ts',
  'test/harness/output/merge.test.ts',
  'test/harness/report/html.test.ts',
  'test/harness/hosts/where.test.ts',
  'test/harness/hosts/hosts-shared.test.ts',
  'test/strategies/exact-held-levels.test.ts',
];

/**
 * No test reads or writes the user's cache of `pack` (pack-cache.ts), nor leaves one behind:
 * the tests of the cache give it a folder of their own. Nor the user's key (pack-cache-key.ts):
 * the run's own, in a folder test/global-setup.ts removes when the run ends (named by this
 * process's id there too).
 */
const NO_CACHE = {
  CTXBENCH_CACHE: 'off',
  XDG_STATE_HOME: path.join(tmpdir(), `ctxbench-test-state-${process.pid}`),
};

/** Half an hour, two under test:full (whose sweeps take minutes on an idle machine). */
const HANG_MS = process.env.CTXBENCH_FULL === '1' ? 7_200_000 : 1_800_000;

export default defineConfig({
  test: {
    // A test that takes long on a loaded machine is slow, not wrong: these only stop a hang.
    testTimeout: HANG_MS,
    hookTimeout: HANG_MS,
    reporters: jsonReport ? ['default', ['json', { outputFile: jsonReport }]] : ['default'],
    // Two files at once even on two cores (vitest's default leaves one core to itself): much of
    // a file's time is spent waiting on a child process or using one core; measured idle, 26-32%
    // less wall time (docs/performance.md, "Test suite").
    maxWorkers: Math.max(2, availableParallelism() - 1),
    projects: [
      {
        extends: true,
        test: {
          name: 'shared',
          include: ['test/**/*.test.ts'],
          exclude: ISOLATED,
          isolate: false,
          // Read by test/helpers/in-thread-hosts.ts, whose vi.mock would leak to other files here.
          env: { CTXBENCH_SHARED_MODULES: '1', ...NO_CACHE },
        },
      },
      {
        extends: true,
        test: { name: 'isolated', include: ISOLATED, globalSetup: ['test/global-setup.ts'], env: NO_CACHE },
      },
    ],
  },
});
