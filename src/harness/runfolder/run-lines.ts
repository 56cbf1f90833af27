/**
 * A finished run folder as `validate` reads it: its manifest as one type with its text, and its
 * rows and compilations as lines, unparsed, so that a line that disagrees is named where it
 * stands instead of stopping the read (read.ts is the reader that stops).
 */
import fs from 'node:fs';
import path from 'node:path';
import { forEachLine, isThere, readTextFile } from '../corpus/index.js';
import { InputError } from '../errors.js';
import { RUN_FILE, RUN_FILES, RUN_IDENTITY } from './files.js';
import { type RunManifest, readRunManifest } from './manifest.js';

/** A finished run's manifest: its file, its text and what it says; exit 2 for no finished run folder. */
export function finishedManifest(dir: string): { file: string; text: string; m: RunManifest } {
  if (!fs.existsSync(dir) || !fs.statSync(dir).isDirectory()) throw new InputError(dir, 'no such folder');
  const file = path.join(dir, RUN_FILE.manifest);
  if (!isThere(file)) {
    const partial = fs.existsSync(path.join(dir, RUN_IDENTITY));
    throw new InputError(
      dir,
      partial
        ? 'a partial run: finish it with `ctxbench study --resume` (which checks the rows it keeps) and validate the finished folder'
        : `no ${RUN_FILE.manifest}: not a run folder`,
    );
  }
  const m = readRunManifest(file);
  // Read again as guarded as the first time: a file swapped meanwhile for a FIFO or a device is refused.
  return { file, text: readTextFile(file), m };
}

/** Every line of a run file, without its newline; a last line without one counts. */
export function runLines(dir: string, name: typeof RUN_FILE.rows | typeof RUN_FILE.compilations): string[] {
  const file = path.join(dir, name);
  if (!isThere(file)) throw new InputError(file, 'missing: not a run folder');
  const lines: string[] = [];
  forEachLine(file, (line) => lines.push(line));
  return lines;
}

/** The files of a run folder that no run writes, sorted. */
export const strayFiles = (dir: string): string[] =>
  fs
    .readdirSync(dir)
    .sort()
    .filter((name) => !(RUN_FILES as readonly string[]).includes(name));
