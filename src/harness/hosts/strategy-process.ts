/**
 * One strategy process (`strategy-host.ts`) as the parent sees it: started with the strategy files it
 * loads, asked one compilation at a time, timed by the parent's clock (`deadline.ts`), and
 * stopped at the first thing it does that the protocol (`protocol.ts`) does not allow. A
 * plug-in has a process of its own; the shipped strategies may share one (`hosts.ts` decides).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import type { Socket } from 'node:net';
import { isPlainObject, type RealTokenizer } from '../../compiler/index.js';
import type { HostedStrategy, StrategyInfo, StrategyRef } from '../types.js';
import { type Answer, cutMessage, cutText, isAnswer } from './answer-rules.js';
import { BadFrame, CHANNEL_FD, FrameReader, frame, MAX_FRAME } from './channel.js';
import { Deadline } from './deadline.js';
import type { Launch } from './launch.js';
import type { Printed } from './printed.js';
import { breach, type Expecting, type HostReply, type HostRequest, WARM_COUNTS_ENV } from './protocol.js';
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
  /**
   * A tokenizer each process loads as soon as its strategies have, while the caller still reads
   * its inputs (`pack`): its first compilation then does not wait for the vocabulary.
   */
  readonly counts?: RealTokenizer | undefined;
}

/** The least time a process is given to load its strategies' modules, in milliseconds. */
const LOAD_TIMEOUT = 60_000;

/** Why a host stopped, in words that do not depend on the run (no pid, no timing). */
function ending(code: number | null, signal: NodeJS.Signals | null, stderr: string, memory: number): string {
  if (/heap out of memory|Reached heap limit/.test(stderr))
    return `ran out of memory (its heap is ${memory} MiB)`;
  if (signal !== null) return `was killed by ${signal}`;
  return `exited with code ${code}`;
}

/** Each strategy loaded, in the order of the files; or why not, and the file that could not be. */
type Loaded =
  | { readonly infos: readonly HostedStrategy[] }
  | { readonly broken: string; readonly file: string };

/** One strategy process, holding one strategy file or several, asked one compilation at a time. */
export class HostProcess {
  readonly refs: readonly StrategyRef[];
  /** Settles once the modules are loaded, or have failed to. */
  readonly loaded: Promise<Loaded>;
  private readonly child: ChildProcess;
  private readonly channel: Socket;
  private readonly timeout: number;
  /** What each strategy's first process said of it, by file, which every later one must say again. */
  private readonly declared: ReadonlyMap<string, HostedStrategy>;
  private onLoad: ((l: Loaded) => void) | undefined;
  private waiting: ((a: Answer) => void) | undefined;
  /** The strategy asked the compilation in progress: the one a failure meanwhile is told of. */
  private asked: StrategyRef;
  private readonly clock = new Deadline();
  private heldKey: string | undefined;
  private nextId = 0;
  /** The job (a study's lane) this process last answered for, which it is kept for while idle. */
  lane: number | undefined;
  dead = false;
  /** Whether it was stopped for taking longer than the timeout (a warm process is then not asked again). */
  timedOut = false;
  /** The first reason a host stopped is the one its cell reports. */
  private ended: string | undefined;

  constructor(
    refs: readonly StrategyRef[],
    o: HostOptions,
    how: Launch,
    printed: Printed,
    declared: ReadonlyMap<string, HostedStrategy>,
  ) {
    this.refs = refs;
    this.asked = refs[0] as StrategyRef;
    this.declared = declared;
    this.timeout = o.timeout;
    this.loaded = new Promise((resolve) => {
      this.onLoad = resolve;
    });
    // Not fork: Node's IPC channel would deserialize what the strategy sends where no try/catch
    // reaches (channel.ts). The channel is a pipe of our own, fd 3 in the child.
    this.child = spawn(process.execPath, how.args(refs.map((r) => r.file)), {
      stdio: ['ignore', 'pipe', 'pipe', 'pipe'],
      ...(o.counts === undefined ? {} : { env: { ...process.env, [WARM_COUNTS_ENV]: o.counts } }),
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
      this.load({ broken: `did not load within ${loading} ms`, file: this.asked.file });
    });
  }

  /** Whether this process holds the strategy of `file`. */
  holds(file: string): boolean {
    return this.refs.some((r) => r.file === file);
  }

  /**
   * One compilation by `ref`, one of this process's strategies. `key` names the case: its shared
   * inputs are sent once per process, whichever of its strategies is asked.
   */
  async ask(ref: StrategyRef, key: string, inputs: Inputs): Promise<Answer> {
    const loaded = await this.loaded;
    if ('broken' in loaded) return { ok: false, message: brokenMessage(ref, loaded, this.refs) };
    if (this.dead) return { ok: false, message: `${ref.name}'s process ${this.ended ?? 'had stopped'}` };
    const k = this.refs.findIndex((r) => r.file === ref.file);
    const info = loaded.infos[k] as HostedStrategy;
    this.asked = ref;
    return new Promise((resolve) => {
      this.waiting = resolve;
      const { request, candidates, policy, annotations } = inputs;
      const message: HostRequest = {
        id: ++this.nextId,
        strategy: k,
        ...(key === this.heldKey ? {} : { shared: { candidates, policy, annotations } }),
        request,
        ...(info.readsLedger ? { ledger: inputs.ledger } : {}),
        ...(inputs.anytime === true ? { anytime: true } : {}),
      };
      this.heldKey = key;
      // The whole answer is timed: from the cell sent to a loaded strategy to its answer read.
      this.clock.start(this.timeout, () => {
        this.timedOut = true;
        this.stop();
        this.reply({
          ok: false,
          message: `${ref.name} timed out: no answer within ${this.timeout} ms, its process was stopped`,
        });
      });
      let bytes: Buffer;
      try {
        bytes = frame(message);
      } catch (e) {
        this.stop();
        return this.reply({ ok: false, message: `${ref.name} could not be sent its input: ${String(e)}` });
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
   * Messages come from the strategies' process, which can send anything, any time: each is
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
    else if ('broken' in m) {
      const at = this.refs[typeof m.file === 'number' ? m.file : 0] ?? this.asked;
      this.load({ broken: `could not be loaded: ${cutMessage(String(m.broken))}`, file: at.file });
    } else if (isAnswer(m.answer))
      this.reply(m.answer.ok ? m.answer : { ok: false, message: cutMessage(m.answer.message) });
    else {
      this.stop();
      this.end('sent an answer that is not one, and was stopped');
    }
  }

  /** What the loaded strategies say of themselves, in the files' order; it counts only as a strategy may say it. */
  private readyInfo(x: unknown): Loaded {
    const said = Array.isArray(x) && x.length === this.refs.length ? x : [];
    const infos: HostedStrategy[] = [];
    for (const [k, ref] of this.refs.entries()) {
      const i = said[k] as Partial<StrategyInfo> | null | undefined;
      if (
        !isPlainObject(i) ||
        i.name !== ref.name ||
        typeof i.description !== 'string' ||
        typeof i.readsLedger !== 'boolean'
      )
        return { broken: 'could not be loaded: its process described another strategy', file: ref.file };
      const info = { name: i.name, description: cutText(i.description), readsLedger: i.readsLedger };
      // The ledger goes to a process only for a strategy of its own that reads it.
      if (info.readsLedger && this.refs.length > 1)
        return {
          broken:
            'could not be loaded: it reads the ledger, so it cannot share a process with other strategies',
          file: ref.file,
        };
      // A process started later (the first one stopped) is given the ledger by what it says, and
      // the run folder records what the first one said: the two must agree.
      const first = this.declared.get(ref.file) ?? info;
      if (first.description !== info.description || first.readsLedger !== info.readsLedger)
        return {
          broken: 'could not be loaded: its process described the strategy otherwise than its first did',
          file: ref.file,
        };
      infos.push({ ...info, file: ref.file });
    }
    return { infos };
  }

  private end(why: string): void {
    if (this.ended !== undefined) return;
    this.ended = why;
    this.dead = true;
    this.load({ broken: `could not be loaded: its process ${why}`, file: this.asked.file });
    this.reply({ ok: false, message: `${this.asked.name}'s process ${why} while compiling` });
  }

  stop(): void {
    this.dead = true;
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill('SIGKILL');
  }
}

/** Why `ref` cannot answer from a process whose loading failed, at its own file or another's. */
function brokenMessage(
  ref: StrategyRef,
  loaded: { readonly broken: string; readonly file: string },
  refs: readonly StrategyRef[],
): string {
  if (loaded.file === ref.file) return `${ref.name} ${loaded.broken}`;
  const other = refs.find((r) => r.file === loaded.file)?.name ?? loaded.file;
  return `${ref.name} could not be loaded: it shares a process with ${other}, which ${loaded.broken}`;
}
