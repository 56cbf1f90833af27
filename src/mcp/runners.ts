/**
 * Where the tools' work is done: never in the server's own process, whose event loop only reads
 * messages and answers them, but in runners (runner.ts), processes under the server's grants that
 * each do one call at a time. A call that blocks (a read that never returns, a loop, a git that
 * hangs) holds up only its own runner: at `--timeout` that runner is killed with every process it
 * started (it leads a process group), the call is answered with an error that names the timeout,
 * and the next call gets another runner. A call the client cancels is stopped the same way.
 *
 * At most RUNNERS calls run at once; the others wait for a runner, up to WAITING calls whose
 * messages hold at most WAITING_MESSAGES times the message limit between them. Past that a call is
 * answered at once that the server is busy: what a client sends can make the server hold only so
 * much. Runners keep nothing of a call but the shipped strategies' processes, loaded and given
 * each call's inputs afresh (warm-hosts.ts); one runner is kept idle for the next call, since
 * starting one, or a strategy's process, takes a few hundred milliseconds.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { serverFlags } from './permission.js';
import { failed, type McpOptions } from './tools/index.js';

/** Calls that run at once. */
export const RUNNERS = 4;
/** Calls that may wait for a runner. */
export const WAITING = 256;
/** What the waiting calls' messages may hold between them, in message limits. */
export const WAITING_MESSAGES = 4;
const KEEP_IDLE = 1;

export interface RunnerJob {
  readonly name: string;
  readonly args: Record<string, unknown>;
  readonly options: McpOptions;
}
export type RunnerReply =
  | { readonly ready: true }
  | { readonly result: CallToolResult }
  | { readonly crash: string };

interface Job {
  readonly name: string;
  readonly args: Record<string, unknown>;
  readonly bytes: number;
  readonly signal: AbortSignal | undefined;
  readonly resolve: (r: CallToolResult) => void;
  readonly reject: (e: Error) => void;
}

const FROM_SOURCE = import.meta.url.endsWith('.ts');
const ENTRY = fileURLToPath(new URL(`./runner${FROM_SOURCE ? '.ts' : '.js'}`, import.meta.url));

/** One runner: its process, and the call it does. */
class Runner {
  readonly child: ChildProcess;
  private job: Job | undefined;
  private ready = false;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private verdict: ReturnType<typeof setImmediate> | undefined;
  /** Killed or ended: it takes no more calls. */
  dead = false;
  private gone = false;
  private readonly o: McpOptions;
  private readonly pool: Runners;

  constructor(o: McpOptions, pool: Runners) {
    this.o = o;
    this.pool = pool;
    // From the sources (the tests' own runs) the process registers tsx, as a strategy's host does;
    // the built package's runner has the server's grants and no more.
    const flags = FROM_SOURCE ? ['--import', import.meta.resolve('tsx/esm')] : serverFlags(o.roots);
    this.child = spawn(process.execPath, [...flags, ENTRY], {
      // Its stdout is not the protocol's: whatever it prints goes to the server's stderr. The
      // pipe is its tether (TETHER_FD), the server's end held by the server alone.
      stdio: ['ignore', 2, 2, 'pipe', 'ipc'],
      detached: true,
      serialization: 'advanced',
    });
    this.child.on('message', (m: RunnerReply) => this.heard(m));
    this.child.on('exit', (code, signal) =>
      this.ended(signal === null ? `exited with code ${code}` : `was killed by ${signal}`),
    );
    this.child.on('error', () => this.ended('could not be started'));
  }

  run(job: Job): void {
    this.job = job;
    job.signal?.addEventListener('abort', () => this.cancel(job), { once: true });
    if (this.ready) this.dispatch();
  }

  private dispatch(): void {
    const job = this.job as Job;
    try {
      // A channel that closed meanwhile is told to the callback; the runner's exit answers the call.
      this.child.send({ name: job.name, args: job.args, options: this.o } satisfies RunnerJob, () => {});
    } catch (e) {
      // What cannot be serialized: the call is answered, the runner (whatever it holds) replaced.
      this.kill();
      this.finish(
        failed(
          `ctxbench: ${job.name}'s arguments could not be passed on: ${e instanceof Error ? e.message : String(e)}`,
        ),
      );
      return;
    }
    // The clock starts as the runner gets the call; a deadline that passed while the server was
    // busy is judged after one more read of the channel, so an answer already sent counts.
    this.timer = setTimeout(() => {
      this.verdict = setImmediate(() => {
        this.kill();
        this.finish(
          failed(
            `ctxbench: ${job.name} did not finish within ${this.o.timeout} ms (--timeout); its work was stopped`,
          ),
        );
      });
    }, this.o.timeout);
  }

  private heard(m: RunnerReply): void {
    if ('ready' in m) {
      this.ready = true;
      if (this.job !== undefined) this.dispatch();
    } else if ('result' in m) this.finish(m.result);
    else this.finish(new Error(m.crash));
  }

  private finish(outcome: CallToolResult | Error): void {
    clearTimeout(this.timer);
    clearImmediate(this.verdict);
    const job = this.job;
    this.job = undefined;
    if (outcome instanceof Error) job?.reject(outcome);
    else job?.resolve(outcome);
    this.pool.freed(this);
  }

  private ended(why: string): void {
    // 'error' (a message that could not be sent) may come before 'exit': the first one counts.
    if (this.gone) return;
    this.gone = true;
    this.kill();
    if (this.job !== undefined) this.finish(failed(`ctxbench: the process doing ${this.job.name} ${why}`));
    this.pool.gone(this);
  }

  /** This runner's process group: the runner, a strategy's host, git, whatever its call started. */
  kill(): void {
    this.dead = true;
    const pid = this.child.pid;
    try {
      if (pid !== undefined) process.kill(-pid, 'SIGKILL');
    } catch {
      // Gone already.
    }
  }

  /** The call in progress is cancelled: stopped, never answered (the client no longer waits). */
  cancel(job: Job): void {
    if (this.job !== job) return;
    this.kill();
    this.finish(failed('ctxbench: cancelled'));
  }
}

export class Runners {
  private readonly live = new Set<Runner>();
  private idle: Runner[] = [];
  private readonly waiting: Job[] = [];
  private waitingBytes = 0;
  private closed = false;
  private readonly o: McpOptions;
  /** The largest message the server reads, in bytes: the waiting calls' bound is a few of these. */
  private readonly maxMessage: number;

  constructor(o: McpOptions, maxMessage: number) {
    this.o = o;
    this.maxMessage = maxMessage;
    // One started before the first call, which would otherwise wait for it.
    this.idle.push(this.spawn());
  }

  /** A tool call's result; `bytes` is its message's size. Aborting `signal` stops it. */
  call(
    name: string,
    args: Record<string, unknown>,
    bytes: number,
    signal?: AbortSignal,
  ): Promise<CallToolResult> {
    return new Promise((resolve, reject) => {
      if (signal?.aborted === true) return resolve(failed('ctxbench: cancelled'));
      const job: Job = { name, args, bytes, signal, resolve, reject };
      const free = this.idle.pop();
      if (free !== undefined) return free.run(job);
      if (this.live.size < RUNNERS) return this.spawn().run(job);
      if (
        this.waiting.length >= WAITING ||
        (this.waiting.length > 0 && this.waitingBytes + bytes > WAITING_MESSAGES * this.maxMessage)
      )
        return resolve(
          failed(
            `ctxbench: the server is busy (${RUNNERS} calls running, ${this.waiting.length} waiting): call again once one is answered`,
          ),
        );
      this.waiting.push(job);
      this.waitingBytes += bytes;
      signal?.addEventListener('abort', () => this.unwait(job), { once: true });
    });
  }

  private spawn(): Runner {
    const runner = new Runner(this.o, this);
    this.live.add(runner);
    return runner;
  }

  private unwait(job: Job): void {
    const k = this.waiting.indexOf(job);
    if (k < 0) return;
    this.waiting.splice(k, 1);
    this.waitingBytes -= job.bytes;
    job.resolve(failed('ctxbench: cancelled'));
  }

  /** A runner finished its call: it takes the next waiting one, or waits itself, or stops. */
  freed(runner: Runner): void {
    if (runner.dead || this.closed) return;
    const next = this.waiting.shift();
    if (next !== undefined) {
      this.waitingBytes -= next.bytes;
      runner.run(next);
    } else if (this.idle.length < KEEP_IDLE) this.idle.push(runner);
    else runner.kill();
  }

  /** A runner's process ended: a waiting call may take its place. */
  gone(runner: Runner): void {
    this.live.delete(runner);
    this.idle = this.idle.filter((r) => r !== runner);
    if (this.closed) return;
    const next = this.waiting.shift();
    if (next === undefined) return;
    this.waitingBytes -= next.bytes;
    this.spawn().run(next);
  }

  /** Every runner killed, with all it started; waiting calls are dropped. */
  close(): void {
    this.closed = true;
    for (const runner of this.live) runner.kill();
    for (const job of this.waiting.splice(0)) job.resolve(failed('ctxbench: the server closed'));
  }
}
