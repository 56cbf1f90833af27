/**
 * A folder of the test run's own, for what test files share across workers (the built project
 * copy of test/helpers/project.ts), removed when the run ends; and the folder of the run's key of
 * pack's cache (vitest.config.ts names it, by this process's id), removed too.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { newDir } from './helpers/temp.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A folder of this test run's own, removed at its end. */
    runDir: string;
  }
}

export default function setup(project: TestProject): () => void {
  const dir = newDir('run');
  project.provide('runDir', dir);
  const state = path.join(os.tmpdir(), `ctxbench-test-state-${process.pid}`);
  return () => {
    fs.rmSync(dir, { recursive: true, force: true });
    fs.rmSync(state, { recursive: true, force: true });
  };
}
