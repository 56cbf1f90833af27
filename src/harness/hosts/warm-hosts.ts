/**
 * Strategy processes kept warm from one MCP call to the next (issue 39), in the runner that does
 * the calls (src/mcp/runner.ts). Starting a locked process and loading a strategy costs a few
 * hundred milliseconds, most of an MCP `compile`; a process already loaded answers in the time
 * its strategy takes.
 *
 * What is kept, and what is not:
 * - Only the package's own strategies (those that may share a process, `hosts.ts`) stay warm:
 *   code this project wrote or pinned, whose answers depend on their input alone. At most `keep`
 *   processes are kept, one strategy each, the least recently used stopped first.
 * - A plug-in gets a process of its own for every call, stopped when the call ends, as before:
 *   nothing a plug-in keeps (a global, a timer, a cache) reaches the next call, and a plug-in
 *   edited between calls runs as it now is.
 * - Nothing of a call's inputs reaches the next: each call's inputs are sent again under a key of
 *   that call (`lease`), and deep-frozen in the process as before. Answers are checked as before.
 * - A process that died, was killed, timed out or broke the protocol is never reused: it is
 *   stopped, and the next call starts another. A call whose warm process turns out to have ended
 *   before it could answer is asked again of a new process, once: what a process per call would
 *   have answered.
 *
 * The processes are the runner's children, in its process group: a runner killed at --timeout,
 * or when the server stops, takes them with it (docs/reliability.md, the MCP server).
 */
import { InputError } from '../errors.js';
import type { HostedStrategy, StrategyRef } from '../types.js';
import type { Answer } from './answer-rules.js';
import type { StrategyHosts } from './hosts.js';
import { type Launch, launch } from './launch.js';
import { Printed } from './printed.js';
import { mayShare } from './registry.js';
import type { Inputs } from './strategy-input.js';
import { type HostOptions, HostProcess } from './strategy-process.js';

/** Warm processes a runner keeps at most: the default strategy and one other. */
export const WARM_KEEP = 2;

/** A process a call holds: whether it answered an earlier call, and whether it may be kept after. */
interface Held {
  host: HostProcess;
  reused: boolean;
  readonly keep: boolean;
}

/** The warm processes of one runner; `lease` one for each call, and `close` when the runner ends. */
export class WarmHosts {
  private readonly o: HostOptions;
  /** Computed once: the grants and their check of links depend on the package, not on a call. */
  private how: Launch | undefined;
  /** Idle, loaded, one shipped strategy each; least recently used first. */
  private idle: HostProcess[] = [];
  /** What each shipped strategy's first process said of it, which every later one must say again. */
  private readonly declared = new Map<string, HostedStrategy>();
  private calls = 0;
  private closed = false;
  /** Processes started so far, for the benchmarks and the tests of reuse. */
  started = 0;

  /** `o.keep` is how many idle processes are kept at most (WARM_KEEP for the MCP runner). */
  constructor(o: HostOptions) {
    this.o = o;
  }

  /** The processes of one call: reused where a warm one holds the strategy, kept after it if shipped. */
  lease(): StrategyHosts {
    return new Lease(this, ++this.calls);
  }

  /**
   * A new process for `ref`. A shipped strategy must describe itself as its first process did; a
   * plug-in's process is its call's alone, and says what the plug-in now is.
   */
  start(ref: StrategyRef): HostProcess {
    this.how ??= launch(this.o.secrets, this.o.memory);
    this.started++;
    const declared = mayShare(ref) ? this.declared : new Map<string, HostedStrategy>();
    return new HostProcess([ref], this.o, this.how, new Printed(ref.name), declared);
  }

  /** A warm process for a shipped `ref`, a new one if none is idle; and whether it was warm. */
  take(ref: StrategyRef): Held {
    if (!mayShare(ref)) return { host: this.start(ref), reused: false, keep: false };
    this.idle = this.idle.filter((h) => !h.dead);
    const k = this.idle.findIndex((h) => h.holds(ref.file));
    if (k >= 0) return { host: this.idle.splice(k, 1)[0] as HostProcess, reused: true, keep: true };
    return { host: this.start(ref), reused: false, keep: true };
  }

  /** A call is done with `held`: kept warm if it may be and is alive, stopped otherwise. */
  give(held: Held): void {
    if (!held.keep || held.host.dead || this.closed) {
      held.host.stop();
      return;
    }
    this.idle.push(held.host);
    while (this.idle.length > this.o.keep) this.idle.shift()?.stop();
  }

  /** Every idle process stopped; a call still holding one stops it when it ends. */
  close(): void {
    this.closed = true;
    for (const host of this.idle.splice(0)) host.stop();
  }
}

/** One call's processes (a `StrategyHosts`, as a session uses a `Hosts`). */
class Lease implements StrategyHosts {
  private readonly warm: WarmHosts;
  /** A key of this call: a process holds a call's shared inputs under it, so no later call finds them. */
  private readonly call: number;
  private readonly held = new Map<string, Held>();
  /** One compilation at a time, as a process answers them. */
  private turn: Promise<unknown> = Promise.resolve();

  constructor(warm: WarmHosts, call: number) {
    this.warm = warm;
    this.call = call;
  }

  async describe(refs: readonly StrategyRef[]): Promise<HostedStrategy[]> {
    const infos: HostedStrategy[] = [];
    for (const ref of refs) {
      const held = this.hold(ref);
      const loaded = await held.host.loaded;
      if ('broken' in loaded) {
        // Never kept: a process whose strategy did not load answers nothing.
        held.host.stop();
        throw new InputError(loaded.file, loaded.broken);
      }
      infos.push(loaded.infos[0] as HostedStrategy);
    }
    return infos;
  }

  /** One compilation by `ref`; never rejects. */
  ask(ref: StrategyRef, key: string, inputs: Inputs): Promise<Answer> {
    const asked = this.turn.then(() => this.answer(ref, `${this.call}:${key}`, inputs));
    this.turn = asked;
    return asked;
  }

  private async answer(ref: StrategyRef, key: string, inputs: Inputs): Promise<Answer> {
    const held = this.hold(ref);
    const answer = await held.host.ask(ref, key, inputs);
    const ended = !answer.ok && held.host.dead && !held.host.timedOut;
    if (!ended || !held.reused) {
      held.reused = false;
      return answer;
    }
    // A warm process that ended under this call, not for its clock: it may have died between
    // calls (killed, say), which a process per call never meets. The call is asked of a new
    // process, once, and what that one answers stands: what a process per call would answer.
    held.host.stop();
    held.host = this.warm.start(ref);
    held.reused = false;
    return held.host.ask(ref, key, inputs);
  }

  private hold(ref: StrategyRef): Held {
    const had = this.held.get(ref.file);
    if (had !== undefined) return had;
    const held = this.warm.take(ref);
    this.held.set(ref.file, held);
    return held;
  }

  close(): void {
    for (const held of this.held.values()) this.warm.give(held);
    this.held.clear();
  }
}
