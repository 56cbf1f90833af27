import fs from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const root = path.dirname(fileURLToPath(import.meta.url));

// CI asks for the counts from vitest's JSON reporter; the file is written only when asked for.
const jsonReport = process.env.CTXBENCH_JSON_REPORT;

/**
 * What makes a command suite need a module graph of its own: it replaces a module or the
 * process's state, or it runs the project copy the run builds once (test/helpers/project.ts),
 * whose folder test/global-setup.ts provides to that project alone.
 */
const OWN_GRAPH = /\bvi\.(?:mock|doMock|resetModules|stubEnv)\(|\bprocess\.chdir\(|\bsharedProject\(/;

/**
 * Files with a module graph of their own: the command suites OWN_GRAPH finds, read here, and
 * the files elsewhere that replace a module. The rest share one graph per worker, which saves
 * about half of a small file's time (docs/performance.md, "Test suite"): a second of CPU for
 * each command suite, measured on ten of them.
 */
const ISOLATED = [
  ...fs
    .readdirSync(path.join(root, 'test/cli'))
    .filter((f) => f.endsWith('.test.ts'))
    .map((f) => `test/cli/${f}`)
    .filter((f) => OWN_GRAPH.test(fs.readFileSync(path.join(root, f), 'utf8'))),
  'test/compiler/overhead-tokenizer.test.ts',
  'test/harness/generate/generate.test.ts',
  'test/harness/corpus/real-tokens.test.ts',
  'test/harness/output/merge.test.ts',
  'test/harness/report/html.test.ts',
  'test/harness/hosts/where.test.ts',
  'test/harness/hosts/hosts-shared.test.ts',
  'test/harness/study/lanes.test.ts',
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

const build: { inputsDigest: (root: string) => string } = await import(
  path.join(root, 'scripts/build.mjs') as string
);
/**
 * Whether dist/ is a build of the sources under test (scripts/build.mjs's stamp of its inputs, as
 * `npm test` leaves it): then the package's own strategies run compiled, as the package runs them
 * (src/harness/hosts/launch.ts), and not compiled again under tsx in each of some hundred processes.
 */
const BUILT = (() => {
  try {
    return fs.readFileSync(path.join(root, 'dist/.build-inputs'), 'utf8') === build.inputsDigest(root);
  } catch {
    return false;
  }
})();

const DIST_CURRENT = { CTXBENCH_DIST_CURRENT: BUILT ? '1' : '0' };

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
          env: { CTXBENCH_SHARED_MODULES: '1', ...NO_CACHE, ...DIST_CURRENT },
        },
      },
      {
        extends: true,
        test: {
          name: 'isolated',
          include: ISOLATED,
          globalSetup: ['test/global-setup.ts'],
          env: { ...NO_CACHE, ...DIST_CURRENT },
        },
      },
    ],
  },
});
