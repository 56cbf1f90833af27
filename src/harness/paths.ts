/**
 * Where the package's own files are (the reference corpus, its ledger, the built strategies),
 * found from this module whether it runs from src/ or from dist/. A root module, shared by every
 * folder and by the CLI's start-up, so it imports nothing of the harness.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

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

let version: string | undefined;

/** The package's version, read once. */
export const packageVersion = (): string => {
  version ??= JSON.parse(fs.readFileSync(fromRoot('package.json'), 'utf8')).version as string;
  return version;
};
