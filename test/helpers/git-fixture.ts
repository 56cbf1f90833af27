/**
 * Small git repositories made from a script, with fixed names and dates so that every commit's id
 * is the same on every machine.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

export type Step =
  | { readonly write: string; readonly content: string | Buffer }
  | { readonly delete: string }
  | { readonly rename: string; readonly to: string }
  | { readonly symlink: string; readonly target: string }
  /** A submodule's entry (a gitlink) at `path`, pointing at commit `sha`, with no .gitmodules. */
  | { readonly submodule: string; readonly sha: string }
  | { readonly commit: string }
  /** Switch to branch `checkout`, made at commit `at` (an index into the commits so far) if given. */
  | { readonly checkout: string; readonly at?: number }
  /** A merge of branch `merge` into the current one (a merge commit even when it could fast-forward). */
  | { readonly merge: string; readonly message: string };

/** 2026-01-01T00:00:00Z: the first commit's time; each later one is an hour after. */
export const EPOCH = 1_767_225_600;
export const HOUR = 3600;

// Without the variables that would send git to another repository (set when tests run in a hook).
const { GIT_DIR: _d, GIT_WORK_TREE: _w, GIT_INDEX_FILE: _i, ...INHERITED } = process.env;

const ENV: NodeJS.ProcessEnv = {
  ...INHERITED,
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_TERMINAL_PROMPT: '0',
  LC_ALL: 'C',
};

export function git(
  dir: string,
  args: readonly string[],
  env: NodeJS.ProcessEnv = {},
  input?: Buffer,
): string {
  return execFileSync('git', ['-C', dir, ...args], {
    env: { ...ENV, ...env },
    encoding: 'utf8',
    ...(input === undefined ? { stdio: ['ignore', 'pipe', 'pipe'] } : { input }),
  }).trim();
}

const dated = (n: number): NodeJS.ProcessEnv => {
  const date = `@${EPOCH + n * HOUR} +0000`;
  return { GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date };
};

/** An empty repository on branch main with a local user. */
export function initRepository(dir: string): string {
  fs.mkdirSync(dir, { recursive: true });
  git(dir, ['init', '-q', '-b', 'main']);
  git(dir, ['config', 'user.name', 'Fixture']);
  git(dir, ['config', 'user.email', 'fixture@example.com']);
  git(dir, ['config', 'commit.gpgsign', 'false']);
  return dir;
}

/** The repository made by `script` in `dir`; the ids of its commits in the order they were made. */
export function makeRepository(dir: string, script: readonly Step[]): string[] {
  initRepository(dir);
  const shas: string[] = [];
  for (const step of script) {
    if ('write' in step) {
      const file = path.join(dir, step.write);
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, step.content);
      git(dir, ['add', '--', step.write]);
    } else if ('delete' in step) {
      git(dir, ['rm', '-q', '--', step.delete]);
    } else if ('rename' in step) {
      fs.mkdirSync(path.dirname(path.join(dir, step.to)), { recursive: true });
      git(dir, ['mv', '--', step.rename, step.to]);
    } else if ('symlink' in step) {
      fs.symlinkSync(step.target, path.join(dir, step.symlink));
      git(dir, ['add', '--', step.symlink]);
    } else if ('submodule' in step) {
      git(dir, ['update-index', '--add', '--cacheinfo', `160000,${step.sha},${step.submodule}`]);
    } else if ('commit' in step) {
      git(dir, ['commit', '-q', '--allow-empty', '-m', step.commit], dated(shas.length));
      shas.push(git(dir, ['rev-parse', 'HEAD']));
    } else if ('checkout' in step) {
      if (step.at === undefined) git(dir, ['checkout', '-q', step.checkout]);
      else git(dir, ['checkout', '-q', '-b', step.checkout, shas[step.at] ?? 'no-such-commit']);
    } else {
      git(dir, ['merge', '-q', '--no-ff', '-m', step.message, step.merge], dated(shas.length));
      shas.push(git(dir, ['rev-parse', 'HEAD']));
    }
  }
  return shas;
}

/** A clone of `source` in `dir` with only its last commit. */
export function shallowClone(source: string, dir: string): string {
  git(path.dirname(dir), ['clone', '-q', '--depth', '1', `file://${source}`, dir]);
  return dir;
}

/** `git hash-object` of bytes, independently of the code under test. */
export function gitHashObject(dir: string, bytes: Buffer): string {
  return git(dir, ['hash-object', '--no-filters', '--stdin'], {}, bytes);
}
