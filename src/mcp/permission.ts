/**
 * What the MCP server may read: its package's own files, and the folders it serves (`--root`,
 * by default the folder it was started in). From the built package `ctxbench mcp` runs itself
 * again under Node's permission model with these grants and no write grant, so a tool cannot
 * read a file it was not given a folder for, whatever its arguments say. It may start processes
 * (each strategy's, itself under the permission model as in `compile`, and git for `pack`) and
 * the worker that counts real tokens.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import type { Socket } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { UsageError } from '../harness/errors.js';
import { inside, PERMISSION_FLAG, readable } from '../harness/hosts/index.js';
import { fromRoot, packageRoot } from '../harness/paths.js';
import { TETHER_FD } from './tether.js';

/**
 * The folders given, each an existing folder, resolved through links. `defaulted`: the one folder
 * is the current one, no --root given (a client may start the server in / or in the home folder).
 */
export function rootsOf(given: readonly string[], defaulted = false): string[] {
  return given.map((r) => {
    let real: string;
    try {
      real = fs.realpathSync(r);
    } catch {
      throw new UsageError(`--root ${r}: no such folder`);
    }
    if (!fs.statSync(real).isDirectory()) throw new UsageError(`--root ${r}: not a folder`);
    const wide = tooWide(real);
    if (wide !== undefined)
      throw new UsageError(
        `--root ${r}${defaulted ? ' (the current folder, as no --root was given)' : ''}: ${wide}; serve the project's folder instead`,
      );
    return real;
  });
}

/**
 * Why a root is too wide to serve, or undefined: pack would read any file of the machine, or of
 * the user's home folder (keys, tokens, every other project), for whoever speaks to the server.
 * The home folder, or a folder holding it (`/home`), is refused; a folder inside it is a project.
 */
function tooWide(real: string): string | undefined {
  if (real === path.parse(real).root) return 'that is the whole file system';
  const home = os.homedir();
  let realHome = path.resolve(home);
  try {
    realHome = fs.realpathSync(home);
  } catch {
    // Under the permission model the home folder may not be looked at; its path as given is kept.
  }
  if (real === realHome) return 'that is the home folder';
  if (inside(realHome, real)) return `it holds the home folder ${realHome}`;
  return undefined;
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

/** Set in the locked server's environment alone, by the command that started it: fd TETHER_FD is its tie. */
export const TIED = 'CTXBENCH_MCP_TETHER';

/**
 * `ctxbench mcp` again, under `flags`, on this process's stdio and tied to it by a pipe only this
 * process holds; its exit code, a signal as 128 + n.
 */
export function relaunched(flags: readonly string[]): Promise<number> {
  // The bin by its real path, not the one it was started by: npx and `npm link` start it through
  // a link in a folder the server may not read, and Node resolves its entry's path before running.
  const bin = fs.realpathSync(fromRoot('bin', 'ctxbench.js'));
  const child = spawn(process.execPath, [...flags, bin, ...process.argv.slice(2)], {
    stdio: ['inherit', 'inherit', 'inherit', 'pipe'],
    env: { ...process.env, [TIED]: String(TETHER_FD) },
  });
  // Held, never read or written: its end is the child's word that this process is gone.
  (child.stdio[TETHER_FD] as Socket).unref();
  const forward = (signal: NodeJS.Signals) => () => child.kill(signal);
  for (const s of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(s, forward(s));
  return new Promise((resolve) => {
    child.on('exit', (code, signal) =>
      resolve(code ?? (signal === 'SIGINT' ? 130 : signal === 'SIGKILL' ? 137 : 143)),
    );
  });
}
