/**
 * Strategies run in processes of their own (`strategy-host.ts`, seen from here as `strategy-process.ts`): none
 * can change another's input or globals, a loop is stopped by a timeout, and a crash, running out
 * of memory or breaking the protocol (`protocol.ts`) costs the cells of its process. From
 * the built package each process may read the code and nothing else (Node's permission model): no
 * strategy that does not declare `readsLedger` reads the ledger. The clock is the parent's
 * (`deadline.ts`); `printed.ts` relays what a process prints.
 *
 * A plug-in, code from outside the project, always has a process of its own. The strategies the
 * package ships (SHARED_HOST) run code this project wrote or pinned, so the ones a command asks
 * for share one process per job (issue 39): one start and one copy of each case's pool where
 * there were one per strategy. The oracle, which reads the ledger, is not among them.
 */
import { InputError } from '../errors.js';
import type { HostedStrategy, StrategyRef } from '../types.js';
import type { Answer } from './answer-rules.js';
import { type Launch, launch } from './launch.js';
import { Printed } from './printed.js';
import { mayShare } from './registry.js';
import type { Inputs } from './strategy-input.js';
import { type HostOptions, HostProcess } from './strategy-process.js';

export type { HostOptions } from './strategy-process.js';

/**
 * The strategies of each process one job starts for `refs`: the shipped ones that may share in
 * one (a shipped strategy alone gains nothing from sharing, and keeps its own process's words),
 * each other in one of its own.
 */
function processUnits(refs: readonly StrategyRef[]): StrategyRef[][] {
  const shared = refs.filter(mayShare);
  const together = shared.length > 1 ? shared : [];
  const alone = refs.filter((r) => !together.includes(r)).map((r) => [r]);
  return together.length > 0 ? [together, ...alone] : alone;
}

/** How many processes one job of a command starts for `refs`: the floor's count (bench/floor-process.ts). */
export const processCount = (refs: readonly StrategyRef[]): number => processUnits(refs).length;

/** What a compile session asks of its strategy processes: a run's own `Hosts`, or an MCP call's warm ones (`warm-hosts.ts`). */
export type StrategyHosts = Pick<Hosts, 'describe' | 'ask' | 'close'>;

/** The strategy processes of one run: idle ones are reused, dead ones replaced. */
export class Hosts {
  private readonly o: HostOptions;
  private readonly how: Launch;
  /** Least recently used first. */
  private idle: HostProcess[] = [];
  private readonly live = new Set<HostProcess>();
  /** The described strategies that share a process: each process started for one of them loads them all. */
  private together: readonly StrategyRef[] = [];
  /** What each strategy file's first process said of it, by file. */
  private readonly declared = new Map<string, HostedStrategy>();
  /** What each strategy file's processes print, by file: one budget each. */
  private readonly printed = new Map<string, Printed>();

  constructor(o: HostOptions) {
    this.o = o;
    this.how = launch(o.secrets, o.memory);
  }

  /**
   * Load the strategies, the shipped ones in one process and each plug-in in one of its own, side
   * by side, and say what each is, in the order given. A module that cannot be loaded stops the
   * command with its file named, before anything runs.
   */
  async describe(refs: readonly StrategyRef[]): Promise<HostedStrategy[]> {
    const units = processUnits(refs);
    this.together = units.find((u) => u.length > 1) ?? [];
    const hosts = units.map((u) => this.spawn(u));
    this.idle.push(...hosts);
    for (const host of hosts) {
      const loaded = await host.loaded;
      if ('broken' in loaded) throw new InputError(loaded.file, loaded.broken);
      for (const info of loaded.infos) this.declared.set(info.file, info);
    }
    return refs.map((r) => this.declared.get(r.file) as HostedStrategy);
  }

  /**
   * One compilation by a strategy in its process; never rejects. A `lane` (a study's job) is
   * answered by the process it was last answered by when that one is idle, so a case's pool and
   * what the strategies keep of it stay in one process.
   */
  async ask(ref: StrategyRef, key: string, inputs: Inputs, lane?: number): Promise<Answer> {
    const host = this.acquire(ref, lane);
    const answer = await host.ask(ref, key, inputs);
    this.release(host);
    return answer;
  }

  /** How many processes this pool has started, for the benchmarks and the tests of sharing. */
  started = 0;

  private spawn(refs: readonly StrategyRef[]): HostProcess {
    this.started++;
    // What the shared process prints is one budget, as it is one process's output.
    const [one] = refs;
    const [key, name] =
      refs.length === 1 && one !== undefined ? [one.file, one.name] : ['', 'the shipped strategies'];
    const printed = this.printed.get(key) ?? new Printed(name);
    this.printed.set(key, printed);
    const host = new HostProcess(refs, this.o, this.how, printed, this.declared);
    this.live.add(host);
    return host;
  }

  private acquire(ref: StrategyRef, lane: number | undefined): HostProcess {
    for (const h of this.idle.filter((h) => h.dead)) this.retire(h);
    this.idle = this.idle.filter((h) => !h.dead);
    const own = this.idle.findIndex((h) => h.holds(ref.file) && h.lane === lane);
    const k = own >= 0 ? own : this.idle.findIndex((h) => h.holds(ref.file));
    const host =
      k >= 0
        ? (this.idle.splice(k, 1)[0] as HostProcess)
        : this.spawned(this.together.some((r) => r.file === ref.file) ? this.together : [ref]);
    host.lane = lane;
    return host;
  }

  /** A new process, once the idle ones past `keep` are stopped. */
  private spawned(refs: readonly StrategyRef[]): HostProcess {
    while (this.live.size >= this.o.keep && this.idle.length > 0)
      this.retire(this.idle.shift() as HostProcess);
    return this.spawn(refs);
  }

  private release(host: HostProcess): void {
    if (host.dead) this.retire(host);
    else this.idle.push(host);
  }

  private retire(host: HostProcess): void {
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
