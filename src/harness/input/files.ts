/** Reading input files, and finding the package's own files (the reference corpus, its ledger). */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { InputError } from './errors.js';

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
