/**
 * A folder of the test run's own, for what test files share across workers (the built project
 * copy of test/helpers/project.ts), removed when the run ends.
 */
import fs from 'node:fs';
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
  return () => fs.rmSync(dir, { recursive: true, force: true });
}
