/** Writing single files: JSON as ctxbench writes it, and files written whole or not at all. */
import fs from 'node:fs';
import path from 'node:path';
import { alive, pidSiblings } from './whole-folder.js';

/** JSON as every file and listing of ctxbench writes it: two-space indent, a final newline. */
export const jsonText = (x: unknown): string => `${JSON.stringify(x, null, 2)}\n`;

/**
 * Write a file whole or not at all: to a temporary sibling first, then renamed into place, so
 * an interrupted run never leaves half a file behind.
 */
export function writeFileAtomic(file: string, data: string): void {
  fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  // What a killed write into the same place left behind goes first.
  for (const [old, pid] of pidSiblings(path.resolve(file), '.', '.tmp'))
    if (!alive(pid)) fs.rmSync(old, { force: true });
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, data);
  fs.renameSync(tmp, file);
}
