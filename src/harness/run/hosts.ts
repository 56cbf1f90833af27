/**
 * Strategies run in processes of their own (`host.ts`), one strategy per process: a strategy
 * cannot change another's input or globals, a loop is stopped by a timeout at any job count,
 * and a crash or running out of memory costs one cell. From the built package each process runs
 * under Node's permission model, able to read the code and nothing else, so a strategy that
 * does not declare `readsLedger` cannot read the ledger by any means (docs/reliability.md).
 */
import { type ChildProcess, fork } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { UsageError } from '../input/errors.js';
import { fromRoot, packageRoot } from '../input/files.js';
import type { Strategy } from '../types.js';
import type { Answer } from './guard.js';
import type { HostReply, HostRequest } from './host.js';
import type { Inputs } from './input.js';
import { strategyFile } from './registry.js';

export interface HostOptions {
  /** Per compilation, in milliseconds. */
  readonly timeout: number;
  /** Processes kept alive at most; idle ones beyond it are stopped, the least recently used first. */
  readonly keep: number;
  /** Files or folders no strategy process may read (the ledger). */
  readonly secrets: readonly string[];
}

const FROM_SOURCE = import.meta.url.endsWith('.ts');

/**
 * How to start a host. From the sources (the tests) the process registers tsx, which needs to
 * start processes of its own, so the permission model is left off there; the built package,
 * which is what people run, always has it.
 */
function launch(secrets: readonly string[]): { entry: string; execArgv: string[] } {
  const entry = fileURLToPath(new URL(`./host${FROM_SOURCE ? '.ts' : '.js'}`, import.meta.url));
  if (FROM_SOURCE) return { entry, execArgv: ['--import', import.meta.resolve('tsx/esm')] };
  const readable = readablePaths();
  const secret = [...secrets, fromRoot('ledger')].map(real).find((s) => readable.some((r) => inside(s, r)));
  if (secret !== undefined)
    throw new UsageError(`the ledger ${secret} lies inside code that strategies may read: move it out`);
  const flag = process.allowedNodeEnvironmentFlags.has('--permission')
    ? '--permission'
    : '--experimental-permission';
  return {
    entry,
    execArgv: [flag, ...readable.map((p) => `--allow-fs-read=${p}`), '--disable-warning=ExperimentalWarning'],
  };
}

const real = (p: string): string => {
  try {
    return fs.realpathSync(p);
  } catch {
    return path.resolve(p);
  }
};

const inside = (p: string, dir: string): boolean => p === dir || p.startsWith(`${dir}${path.sep}`);

/**
 * What a strategy process may read: the compiled code (strategies and the data shipped beside
 * them included), the package's package.json, and the node_modules folders modules resolve from.
 */
function readablePaths(): string[] {
  const root = real(packageRoot());
  const paths = [real(fromRoot('dist')), path.join(root, 'package.json')];
  for (let dir = root; ; dir = path.dirname(dir)) {
    const modules = path.join(dir, 'node_modules');
    if (fs.existsSync(modules)) paths.push(real(modules));
    if (path.dirname(dir) === dir) return paths;
  }
}

/** Why a host stopped, in words that do not depend on the run (no pid, no timing). */
function ending(code: number | null, signal: NodeJS.Signals | null, stderr: string): string {
  if (/heap out of memory|Reached heap limit/.test(stderr)) return 'ran out of memory';
  if (signal !== null) return `was killed by ${signal}`;
  return `exited with code ${code}`;
}

/** One strategy's process, asked one compilation at a time. */
class Host {
  readonly strategy: Strategy;
  private readonly child: ChildProcess;
  private readonly timeout: number;
  private waiting: ((a: Answer) => void) | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private broken: string | undefined;
  private heldKey: string | undefined;
  private stderrTail = '';
  private nextId = 0;
  dead = false;

  constructor(strategy: Strategy, o: HostOptions, how: { entry: string; execArgv: string[] }) {
    this.strategy = strategy;
    this.timeout = o.timeout;
    const file = strategyFile(strategy) as string;
    this.child = fork(how.entry, [file, path.extname(file)], {
      execArgv: how.execArgv,
      serialization: 'advanced',
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    });
    // What a strategy prints is for its author's eyes, never for ctxbench's own output.
    this.child.stdout?.on('data', (d: Buffer) => process.stderr.write(d));
    this.child.stderr?.on('data', (d: Buffer) => {
      process.stderr.write(d);
      this.stderrTail = (this.stderrTail + d.toString()).slice(-4096);
    });
    this.child.on('message', (m: HostReply) => this.hear(m));
    this.child.on('exit', (code, signal) =>
      this.end(`${ending(code, signal, this.stderrTail)} while compiling`),
    );
    this.child.on('error', () => this.end('could not be started'));
  }

  private get name(): string {
    return this.strategy.name;
  }

  /** One compilation. `key` names the case: its shared inputs are sent once per host. */
  ask(key: string, inputs: Inputs): Promise<Answer> {
    if (this.broken !== undefined) return Promise.resolve(this.failed(this.broken));
    return new Promise((resolve) => {
      this.waiting = resolve;
      const { request, candidates, policy, annotations } = inputs;
      const message: HostRequest = {
        id: ++this.nextId,
        ...(key === this.heldKey ? {} : { shared: { candidates, policy, annotations } }),
        request,
        ...(this.strategy.readsLedger === true ? { ledger: inputs.ledger } : {}),
      };
      this.heldKey = key;
      // The clock only decides when to give up on a process, never what is compiled.
      this.timer = setTimeout(() => {
        this.stop();
        this.reply(this.failed(`timed out: no answer within ${this.timeout} ms, its process was stopped`));
      }, this.timeout);
      this.child.send(message, (e) => {
        if (e) this.end('could not be reached');
      });
    });
  }

  private failed(why: string): Answer {
    return { ok: false, message: `${this.name} ${why}` };
  }

  private reply(a: Answer): void {
    clearTimeout(this.timer);
    const resolve = this.waiting;
    this.waiting = undefined;
    resolve?.(a);
  }

  private hear(m: HostReply): void {
    if ('broken' in m) {
      this.broken = `could not be loaded in its own process: ${m.broken}`;
      this.reply(this.failed(this.broken));
    } else if (m.id === this.nextId) this.reply(m.answer);
  }

  private end(why: string): void {
    this.dead = true;
    this.reply({ ok: false, message: `${this.name}'s process ${why}` });
  }

  stop(): void {
    this.dead = true;
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill('SIGKILL');
  }
}

/** The strategy processes of one run: idle ones are reused, dead ones replaced. */
export class Hosts {
  private readonly o: HostOptions;
  private readonly how: { entry: string; execArgv: string[] };
  /** Least recently used first. */
  private idle: Host[] = [];
  private readonly live = new Set<Host>();

  constructor(o: HostOptions) {
    this.o = o;
    this.how = launch(o.secrets);
  }

  /** Start one process per strategy now, side by side, rather than each when first asked. */
  warm(strategies: Iterable<Strategy>): void {
    for (const s of strategies) {
      if (this.live.size >= this.o.keep) return;
      const host = new Host(s, this.o, this.how);
      this.live.add(host);
      this.idle.push(host);
    }
  }

  /** One compilation by `strategy` in a process of its own; never rejects. */
  async ask(strategy: Strategy, key: string, inputs: Inputs): Promise<Answer> {
    const host = this.acquire(strategy);
    const answer = await host.ask(key, inputs);
    this.release(host);
    return answer;
  }

  private acquire(strategy: Strategy): Host {
    for (const h of this.idle.filter((h) => h.dead)) this.retire(h);
    this.idle = this.idle.filter((h) => !h.dead);
    const k = this.idle.findIndex((h) => h.strategy === strategy);
    if (k >= 0) return this.idle.splice(k, 1)[0] as Host;
    while (this.live.size >= this.o.keep && this.idle.length > 0) this.retire(this.idle.shift() as Host);
    const host = new Host(strategy, this.o, this.how);
    this.live.add(host);
    return host;
  }

  private release(host: Host): void {
    if (host.dead) {
      this.retire(host);
      return;
    }
    this.idle.push(host);
  }

  private retire(host: Host): void {
    host.stop();
    this.live.delete(host);
  }

  /** Stop every process. */
  close(): void {
    for (const host of this.live) host.stop();
    this.live.clear();
    this.idle.length = 0;
  }
}
