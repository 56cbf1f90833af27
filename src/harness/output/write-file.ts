/** Writing single files: JSON as ctxbench writes it, and files written whole or not at all. */
import fs from 'node:fs';
import path from 'node:path';
import { InputError } from '../errors.js';
import { unlinkIfThere, writeNewFile } from './new-file.js';
import { alive, pidSiblings } from './whole-folder.js';

/** JSON as every file and listing of ctxbench writes it: two-space indent, a final newline. */
export const jsonText = (x: unknown): string => `${JSON.stringify(x, null, 2)}\n`;

/**
 * Write a file whole or not at all: to a new temporary sibling first, then renamed into place, so
 * an interrupted run never leaves half a file behind. The rename replaces whatever held the name
 * (a link, a hard link to someone's file, a FIFO) and writes through none of it. A folder or a
 * place that cannot be written stops with one line naming the file (exit 2).
 */
export function writeFileAtomic(file: string, data: string): void {
  const cannot = (e: unknown) => {
    const code = (e as NodeJS.ErrnoException).code ?? 'unwritable';
    return new InputError(file, `cannot write file (${code === 'EISDIR' ? 'it is a folder' : code})`);
  };
  try {
    fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  } catch (e) {
    throw cannot(e);
  }
  // What a killed write into the same place left behind goes first.
  for (const [old, pid] of pidSiblings(path.resolve(file), '.', '.tmp'))
    if (!alive(pid)) fs.rmSync(old, { force: true });
  const tmp = `${file}.${process.pid}.tmp`;
  try {
    // Ours by its pid, so anything already there is left over or planted: it goes (a link itself).
    unlinkIfThere(tmp);
    writeNewFile(tmp, data);
    fs.renameSync(tmp, file);
  } catch (e) {
    try {
      unlinkIfThere(tmp);
    } catch {
      // A folder at the temporary name is no file of ours: it stays, and the first failure is told.
    }
    throw cannot(e);
  }
}
