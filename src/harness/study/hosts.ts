/**
 * Strategies run in processes of their own (`host.ts`), one per strategy: none can change
 * another's input or globals, a loop is stopped by a timeout, and a crash, running out of memory
 * or breaking the protocol (`protocol.ts`) costs one cell. From the built package each process
 * may read the code and nothing else (Node's permission model): no strategy that does not declare
 * `readsLedger` reads the ledger. The clock is the parent's (`clock.ts`); `printed.ts` relays.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import type { Socket } from 'node:net';
import { isPlainObject } from '../../compiler/index.js';
import { InputError } from '../errors.js';
import type { HostedStrategy, StrategyInfo, StrategyRef } from '../types.js';
import { BadFrame, CHANNEL_FD, FrameReader, frame, MAX_FRAME } from './channel.js';
import { Deadline } from './host-clock.js';
import { breach, type Expecting, type HostReply, type HostRequest } from './host-protocol.js';
import { type Launch, launch } from './launch.js';
import { Printed } from './printed.js';
import { type Answer, cutMessage, cutText, isAnswer } from './sandbox.js';
import type { Inputs } from './strategy-input.js';

export interface HostOptions {
  /** Per compilation, in milliseconds, from the request sent to the answer read. */
  readonly timeout: number;
  /** Processes kept alive at most; idle ones beyond it are stopped, the least recently used first. */
  readonly keep: number;
  /** Files or folders no strategy process may read (the ledger). */
  readonly secrets: readonly string[];
  /** The heap of each strategy process, in MiB; DEFAULT_MEMORY when not given. */
  readonly memory?: number | undefined;
}

/** The least time a strategy's module is given to load, in milliseconds. */
const LOAD_TIMEOUT = 60_000;

/** Why a host stopped, in words that do not depend on the run (no pid, no timing). */
function ending(code: number | null, signal: NodeJS.Signals | null, stderr: string, memory: number): string {
  if (/heap out of memory|Reached heap limit/.test(stderr))
    return `ran out of memory (its heap is ${memory} MiB)`;
  if (signal !== null) return `was killed by ${signal}`;
  return `exited with code ${code}`;
}

type Loaded = { readonly info: HostedStrategy } | { readonly broken: string };

/** One strategy's process, asked one compilation at a time. */
class Host {
  readonly ref: StrategyRef;
  /** Settles once the module is loaded, or has failed to. */
  readonly loaded: Promise<Loaded>;
  private readonly child: ChildProcess;
  private readonly channel: Socket;
  private readonly timeout: number;
  /** What the strategy's first process said of it, which every later one must say again. */
  private readonly declared: HostedStrategy | undefined;
  private onLoad: ((l: Loaded) => void) | undefined;
  private waiting: ((a: Answer) => void) | undefined;
  private readonly clock = new Deadline();
  private heldKey: string | undefined;
  private nextId = 0;
  dead = false;
  /** The first reason a host stopped is the one its cell reports. */
  private ended: string | undefined;

  constructor(ref: StrategyRef, o: HostOptions, how: Launch, printed: Printed, declared?: HostedStrategy) {
    this.ref = ref;
    this.declared = declared;
    this.timeout = o.timeout;
    this.loaded = new Promise((resolve) => {
      this.onLoad = resolve;
    });
    // Not fork: Node's IPC channel would deserialize what the strategy sends where no try/catch
    // reaches (frames.ts). The channel is a pipe of our own, fd 3 in the child.
    this.child = spawn(process.execPath, [...how.execArgv, how.entry, ref.file], {
      stdio: ['ignore', 'pipe', 'pipe', 'pipe'],
    });
    this.channel = this.child.stdio[CHANNEL_FD] as Socket;
    // What a strategy prints is for its author's eyes, never for ctxbench's own output.
    const shown = printed.relay(this.child);
    const reader = new FrameReader(MAX_FRAME);
    this.channel.on('data', (chunk: Buffer) => {
      if (this.dead) return;
      let replies: unknown[];
      try {
        replies = reader.push(chunk);
      } catch (e) {
        if (!(e instanceof BadFrame)) throw e;
        this.stop();
        this.end(`sent ${e.message}, and was stopped`);
        return;
      }
      for (const m of replies) this.hear(m);
    });
    this.channel.on('error', () => {});
    // 'close', not 'exit': by then all it wrote to stderr (V8's word that the heap ran out) is read.
    this.child.on('close', (code, signal) => {
      shown.end();
      this.end(ending(code, signal, shown.tail(), how.memory));
    });
    this.child.on('error', () => this.end('could not be started'));
    // Loading is not compiling: a short --timeout must not fail a module that loads slowly.
    const loading = Math.max(this.timeout, LOAD_TIMEOUT);
    this.clock.start(loading, () => {
      this.stop();
      this.load({ broken: `did not load within ${loading} ms` });
    });
  }

  /** One compilation. `key` names the case: its shared inputs are sent once per host. */
  async ask(key: string, inputs: Inputs): Promise<Answer> {
    const loaded = await this.loaded;
    if ('broken' in loaded) return { ok: false, message: `${this.ref.name} ${loaded.broken}` };
    if (this.dead) return { ok: false, message: `${this.ref.name}'s process ${this.ended ?? 'had stopped'}` };
    return new Promise((resolve) => {
      this.waiting = resolve;
      const { request, candidates, policy, annotations } = inputs;
      const message: HostRequest = {
        id: ++this.nextId,
        ...(key === this.heldKey ? {} : { shared: { candidates, policy, annotations } }),
        request,
        ...(loaded.info.readsLedger === true ? { ledger: inputs.ledger } : {}),
      };
      this.heldKey = key;
      // The whole answer is timed: from the cell sent to a loaded strategy to its answer read.
      this.clock.start(this.timeout, () => {
        this.stop();
        this.reply({
          ok: false,
          message: `${this.ref.name} timed out: no answer within ${this.timeout} ms, its process was stopped`,
        });
      });
      let bytes: Buffer;
      try {
        bytes = frame(message);
      } catch (e) {
        this.stop();
        return this.reply({
          ok: false,
          message: `${this.ref.name} could not be sent its input: ${String(e)}`,
        });
      }
      this.channel.write(bytes, (e) => {
        if (e) this.end('could not be reached');
      });
    });
  }

  private load(l: Loaded): void {
    this.clock.stop();
    this.onLoad?.(l);
    this.onLoad = undefined;
  }

  private reply(a: Answer): void {
    this.clock.stop();
    const resolve = this.waiting;
    this.waiting = undefined;
    resolve?.(a);
  }

  /** Where the protocol stands: what this process may send next. */
  private expecting(): Expecting {
    if (this.onLoad !== undefined) return { loading: true };
    return this.waiting === undefined ? { idle: true } : { answerTo: this.nextId };
  }

  /**
   * Messages come from the strategy's process, which can send anything, any time: each is
   * checked against the one the protocol expects, and anything else stops the process. No
   * message touches the clock but by ending what it times.
   */
  private hear(said: unknown): void {
    const wrong = breach(said, this.expecting());
    const m = said as HostReply;
    if (wrong !== null) {
      this.stop();
      this.end(`broke the protocol: it sent ${wrong}, and was stopped`);
    } else if ('ready' in m) this.load(this.readyInfo(m.ready));
    else if ('broken' in m) this.load({ broken: `could not be loaded: ${cutMessage(String(m.broken))}` });
    else if (isAnswer(m.answer))
      this.reply(m.answer.ok ? m.answer : { ok: false, message: cutMessage(m.answer.message) });
    else {
      this.stop();
      this.end('sent an answer that is not one, and was stopped');
    }
  }

  /** What a loaded strategy says of itself; it counts only if it is what a strategy may say. */
  private readyInfo(x: unknown): Loaded {
    const i = x as Partial<StrategyInfo> | null;
    if (
      !isPlainObject(i) ||
      i.name !== this.ref.name ||
      typeof i.description !== 'string' ||
      typeof i.readsLedger !== 'boolean'
    )
      return { broken: 'could not be loaded: its process described another strategy' };
    const info = { name: i.name, description: cutText(i.description), readsLedger: i.readsLedger };
    // A process started later (the first one stopped) is given the ledger by what it says, and
    // the run folder records what the first one said: the two must agree.
    const first = this.declared ?? info;
    if (first.description !== info.description || first.readsLedger !== info.readsLedger)
      return {
        broken: 'could not be loaded: its process described the strategy otherwise than its first did',
      };
    return { info: { ...info, file: this.ref.file } };
  }

  private end(why: string): void {
    if (this.ended !== undefined) return;
    this.ended = why;
    this.dead = true;
    this.load({ broken: `could not be loaded: its process ${why}` });
    this.reply({ ok: false, message: `${this.ref.name}'s process ${why} while compiling` });
  }

  stop(): void {
    this.dead = true;
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill('SIGKILL');
  }
}

/** The strategy processes of one run: idle ones are reused, dead ones replaced. */
export class Hosts {
  private readonly o: HostOptions;
  private readonly how: Launch;
  /** Least recently used first. */
  private idle: Host[] = [];
  private readonly live = new Set<Host>();
  /** What each strategy file's first process said of it, by file. */
  private readonly declared = new Map<string, HostedStrategy>();
  /** What each strategy file's processes print, by file: one budget each. */
  private readonly printed = new Map<string, Printed>();

  constructor(o: HostOptions) {
    this.o = o;
    this.how = launch(o.secrets, o.memory);
  }

  /**
   * Load each strategy in a process of its own, side by side, and say what each is. A module
   * that cannot be loaded stops the command with its file named, before anything runs.
   */
  async describe(refs: readonly StrategyRef[]): Promise<HostedStrategy[]> {
    const hosts = refs.map((ref) => this.spawn(ref));
    this.idle.push(...hosts);
    const infos: HostedStrategy[] = [];
    for (const host of hosts) {
      const loaded = await host.loaded;
      if ('broken' in loaded) throw new InputError(host.ref.file, loaded.broken);
      this.declared.set(host.ref.file, loaded.info);
      infos.push(loaded.info);
    }
    return infos;
  }

  /** One compilation by a strategy in a process of its own; never rejects. */
  async ask(ref: StrategyRef, key: string, inputs: Inputs): Promise<Answer> {
    const host = this.acquire(ref);
    const answer = await host.ask(key, inputs);
    this.release(host);
    return answer;
  }

  private spawn(ref: StrategyRef): Host {
    const printed = this.printed.get(ref.file) ?? new Printed(ref.name);
    this.printed.set(ref.file, printed);
    const host = new Host(ref, this.o, this.how, printed, this.declared.get(ref.file));
    this.live.add(host);
    return host;
  }

  private acquire(ref: StrategyRef): Host {
    for (const h of this.idle.filter((h) => h.dead)) this.retire(h);
    this.idle = this.idle.filter((h) => !h.dead);
    const k = this.idle.findIndex((h) => h.ref.file === ref.file);
    if (k >= 0) return this.idle.splice(k, 1)[0] as Host;
    while (this.live.size >= this.o.keep && this.idle.length > 0) this.retire(this.idle.shift() as Host);
    return this.spawn(ref);
  }

  private release(host: Host): void {
    if (host.dead) this.retire(host);
    else this.idle.push(host);
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
