import { defineConfig } from 'vitest/config';

// CI asks for the counts from vitest's JSON reporter; the file is written only when asked for.
const jsonReport = process.env.CTXBENCH_JSON_REPORT;

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 120_000,
    // Hooks run whole studies; on a loaded machine they take longer than the 10 s default.
    hookTimeout: 120_000,
    reporters: jsonReport ? ['default', ['json', { outputFile: jsonReport }]] : ['default'],
  },
});
