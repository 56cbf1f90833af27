/**
 * The one way a test makes a folder of its own: `tempDir` for a test file's scratch folder,
 * removed after the file; `newDir` for a fresh folder inside one, or for a helper that removes
 * what it made itself. Real paths (git, Node's resolver and the output guards compare real
 * paths; a temporary folder may lie behind a link, as on macOS).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll } from 'vitest';

/** A new empty folder `<prefix>-XXXXXX` under `parent` (by default `ctxbench-<prefix>-XXXXXX` in the system's). */
export function newDir(prefix: string, parent?: string): string {
  const base =
    parent === undefined ? path.join(os.tmpdir(), `ctxbench-${prefix}-`) : path.join(parent, `${prefix}-`);
  return fs.realpathSync(fs.mkdtempSync(base));
}

/** A temporary folder removed after the test file. */
export function tempDir(prefix: string): string {
  const dir = newDir(prefix);
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}
