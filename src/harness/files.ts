import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { InputError } from './errors.js';

/** JSON as every file and listing of ctxbench writes it: two-space indent, a final newline. */
export const jsonText = (x: unknown): string => `${JSON.stringify(x, null, 2)}\n`;

/** Parse a JSON file, or stop with one line naming it. */
export function readJsonFile(file: string): unknown {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code ?? 'unreadable';
    throw new InputError(file, `cannot read file (${code})`);
  }
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new InputError(file, `not valid JSON (${(e as Error).message})`);
  }
}

/**
 * Write a file whole or not at all: to a temporary sibling first, then renamed into place, so
 * an interrupted run never leaves half a file behind.
 */
export function writeFileAtomic(file: string, data: string): void {
  fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, data);
  fs.renameSync(tmp, file);
}

let root: string | undefined;

/** The folder holding ctxbench's package.json, whether running from src/ or from dist/. */
export function packageRoot(): string {
  if (root !== undefined) return root;
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const pkg = path.join(dir, 'package.json');
    if (fs.existsSync(pkg) && JSON.parse(fs.readFileSync(pkg, 'utf8')).name === 'ctxbench') {
      root = dir;
      return dir;
    }
    const up = path.dirname(dir);
    if (up === dir) throw new Error('ctxbench package root not found');
    dir = up;
  }
}

export const fromRoot = (...parts: string[]): string => path.join(packageRoot(), ...parts);
