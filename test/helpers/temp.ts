/**
 * The one way a test makes a folder of its own: `tempDir` for a test file's scratch folder,
 * removed after the file; `newDir` for a fresh folder inside one, or for a helper that removes
 * what it made itself. Real paths (git, Node's resolver and the output guards compare real
 * paths; a temporary folder may lie behind a link, as on macOS).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, onTestFinished } from 'vitest';

/** A new empty folder `<prefix>-XXXXXX` under `parent` (by default `ctxbench-<prefix>-XXXXXX` in the system's). */
export function newDir(prefix: string, parent?: string): string {
  const base =
    parent === undefined ? path.join(os.tmpdir(), `ctxbench-${prefix}-`) : path.join(parent, `${prefix}-`);
  return fs.realpathSync(fs.mkdtempSync(base));
}

/**
 * A temporary folder removed after the test that made it, or after the test file when made
 * outside a test (at the top of the file or in a `describe`). Not in a `beforeAll`: vitest drops
 * a hook registered while hooks run, so the folder would outlive the run.
 */
export function tempDir(prefix: string): string {
  const dir = newDir(prefix);
  const remove = () => fs.rmSync(dir, { recursive: true, force: true });
  try {
    onTestFinished(remove);
  } catch {
    // Not inside a test (vitest says so by throwing): the file's end.
    afterAll(remove);
  }
  return dir;
}
