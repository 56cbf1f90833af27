/**
 * Running the system `git` on a folder ctxbench does not trust, in the environment `git-env.ts`
 * makes for it, with a bound on its time and output.
 */
import { spawn, spawnSync } from 'node:child_process';
import { InputError } from '../../errors.js';
import { ALWAYS, configOf, environment, overrides } from './git-env.js';

/**
 * How long one git call may take, in milliseconds. Large histories take git minutes to log; a
 * call past this is stuck (a configuration that includes a named pipe, say), not slow.
 */
export const GIT_TIMEOUT = 600_000;

// Histories of large projects run to hundreds of megabytes of `git log` output.
const MAX_OUTPUT = 1 << 30;

export interface GitResult {
  readonly status: number | null;
  readonly stdout: Buffer;
  readonly stderr: string;
}

/** A folder git is run in, with the overrides its configuration needs. */
export interface GitFolder {
  readonly dir: string;
  readonly env: NodeJS.ProcessEnv;
  /** Its configuration as git read it (the last value of each key), before the overrides. */
  readonly config: ReadonlyMap<string, string>;
}

const ARGS = (dir: string, args: readonly string[]): string[] => ['--no-pager', '-C', dir, ...args];

function failed(dir: string, args: readonly string[], error: Error, timeout: number): InputError {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return new InputError(dir, 'git is not installed (no `git` on PATH)');
  if (code === 'ETIMEDOUT' || /ETIMEDOUT|timed out/.test(error.message))
    return new InputError(dir, `git ${args[0] ?? ''} did not finish within ${timeout} ms, and was stopped`);
  return new InputError(dir, `git ${args[0] ?? ''} failed: ${error.message}`);
}

/** One git call, waited for. */
export function runGit(at: GitFolder, args: readonly string[], input?: Buffer | string): GitResult {
  const r = spawnSync('git', ARGS(at.dir, args), {
    env: at.env,
    maxBuffer: MAX_OUTPUT,
    timeout: GIT_TIMEOUT,
    killSignal: 'SIGKILL',
    ...(input === undefined ? { stdio: ['ignore', 'pipe', 'pipe'] } : { input }),
  });
  if (r.error !== undefined) throw failed(at.dir, args, r.error, GIT_TIMEOUT);
  return { status: r.status, stdout: r.stdout, stderr: r.stderr.toString('utf8') };
}

/**
 * One git call that leaves this thread free meanwhile (for the MCP server, whose other calls go
 * on); `timeout` bounds it, and the process is killed past it.
 */
export function runGitAsync(
  at: GitFolder,
  args: readonly string[],
  timeout = GIT_TIMEOUT,
): Promise<GitResult> {
  return new Promise((resolve, reject) => {
    const child = spawn('git', ARGS(at.dir, args), { env: at.env, stdio: ['ignore', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let size = 0;
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(failed(at.dir, args, new Error('timed out'), timeout));
    }, timeout);
    child.stdout.on('data', (d: Buffer) => {
      size += d.length;
      if (size > MAX_OUTPUT) {
        child.kill('SIGKILL');
        reject(new InputError(at.dir, `git ${args[0] ?? ''} printed more than ${MAX_OUTPUT} bytes`));
      } else out.push(d);
    });
    child.stderr.on('data', (d: Buffer) => err.push(d));
    child.on('error', (e) => {
      clearTimeout(timer);
      reject(failed(at.dir, args, e, timeout));
    });
    child.on('close', (status) => {
      clearTimeout(timer);
      resolve({ status, stdout: Buffer.concat(out), stderr: Buffer.concat(err).toString('utf8') });
    });
  });
}

// Every configured key and value, from every file git would read (includes followed).
const LIST = ['config', '--list', '-z'];

const folder = (dir: string, listed: GitResult): GitFolder => {
  const config = configOf(listed);
  return { dir, env: environment(overrides(dir, config)), config };
};

const bare = (dir: string): GitFolder => ({ dir, env: environment(ALWAYS), config: new Map() });

/** `dir` made ready for git: its configuration read once, its programs overridden. */
export function gitFolder(dir: string): GitFolder {
  return folder(dir, runGit(bare(dir), LIST));
}

/** The same, without holding this thread while git reads the configuration. */
export async function gitFolderAsync(dir: string, timeout?: number): Promise<GitFolder> {
  return folder(dir, await runGitAsync(bare(dir), LIST, timeout));
}
