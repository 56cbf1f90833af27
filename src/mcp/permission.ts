/**
 * What the MCP server may read: its package's own files, and the folders it serves (`--root`,
 * by default the folder it was started in). From the built package `ctxbench mcp` runs itself
 * again under Node's permission model with these grants and no write grant, so a tool cannot
 * read a file it was not given a folder for, whatever its arguments say. It may start processes
 * (each strategy's, itself under the permission model as in `compile`, and git for `pack`) and
 * the worker that counts real tokens.
 */
import fs from 'node:fs';
import path from 'node:path';
import { UsageError } from '../harness/errors.js';
import { packageRoot } from '../harness/paths.js';
import { inside, PERMISSION_FLAG, readable } from '../harness/study/index.js';

/** The folders given, each an existing folder, resolved through links. */
export function rootsOf(given: readonly string[]): string[] {
  return given.map((r) => {
    let real: string;
    try {
      real = fs.realpathSync(r);
    } catch {
      throw new UsageError(`--root ${r}: no such folder`);
    }
    if (!fs.statSync(real).isDirectory()) throw new UsageError(`--root ${r}: not a folder`);
    return real;
  });
}

/** Node's flags for a server that reads only its package and `roots`. */
export const serverFlags = (roots: readonly string[]): string[] => [
  PERMISSION_FLAG,
  ...readable([packageRoot(), ...roots]).map((p) => `--allow-fs-read=${p}`),
  '--allow-child-process',
  '--allow-worker',
  '--disable-warning=ExperimentalWarning',
  '--disable-warning=SecurityWarning',
];

/** True when this process runs under the permission model. */
export const underPermission = (): boolean => (process as { permission?: unknown }).permission !== undefined;

/**
 * `dir` resolved through its links, when it lies inside one of `roots`; a UsageError naming them
 * otherwise. A folder the process may not even look at is outside too.
 */
export function servedFolder(dir: string, roots: readonly string[]): string {
  let real: string | undefined;
  try {
    real = fs.realpathSync(path.resolve(dir));
  } catch (e) {
    if ((e as { code?: string }).code !== 'ERR_ACCESS_DENIED') throw new UsageError(`${dir}: no such folder`);
  }
  if (real === undefined || !roots.some((r) => inside(real, r)))
    throw new UsageError(
      `${dir} is outside the folders this server reads (${roots.join(', ')}): start it with --root for another`,
    );
  return real;
}
