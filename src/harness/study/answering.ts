/**
 * Where a study's strategies answer, opened once for a run: in processes of their own (what the
 * CLI does) or in this thread. The study, the kept rows of a resumed run and `validate` all ask
 * their cells through it, so a cell asked again is asked as the study asked it.
 */

import { assembleAwaited, Hosts, strategyInput } from '../hosts/index.js';
import type { HostedStrategy, Strategy, StrategyInfo, StrategyRef } from '../types.js';
import type { Ask } from './slice.js';

/** Where the strategies answer. */
export type Where =
  /**
   * Each strategy file in a process of its own, under the permission model when built: a
   * strategy cannot read the ledger unless it says so, change another's input, or stall the
   * run past `timeout` (milliseconds per compilation). What the CLI does.
   */
  | {
      readonly in: 'processes';
      readonly strategies: readonly StrategyRef[];
      readonly timeout: number;
      /** MiB of heap per strategy process; hosts.ts's default when absent. */
      readonly memory?: number | undefined;
    }
  /** Strategies already loaded, answering in this thread: no isolation, no timeout, no process start. */
  | { readonly in: 'thread'; readonly strategies: readonly Strategy[] };

/** The strategies of a run, each having said what it is, and how one of their cells is asked. */
export interface Answering {
  /** What each strategy said of itself, in the order given. */
  readonly strategies: readonly StrategyInfo[];
  readonly ask: Ask;
  /** Stops every process. */
  close(): void;
}

/**
 * Open the strategies of `where`: in processes, each loaded in one of its own, which says what it
 * is (a module that cannot be loaded stops with its file named); `keep` processes at most stay
 * alive, and none may read `secrets` (the ledger).
 */
export async function answering(
  where: Where,
  o: { readonly keep: number; readonly secrets: readonly string[] },
): Promise<Answering> {
  if (where.in === 'thread') return { strategies: where.strategies, ask: threadAsk, close: () => {} };
  const hosts = new Hosts({ timeout: where.timeout, memory: where.memory, keep: o.keep, secrets: o.secrets });
  try {
    const strategies = await hosts.describe(where.strategies);
    return { strategies, ask: hostedAsk(hosts), close: () => hosts.close() };
  } catch (e) {
    hosts.close();
    throw e;
  }
}

/** A strategy in its own process answers; the hosts keep it alive between its cells. */
const hostedAsk =
  (hosts: Hosts): Ask =>
  (cell, inputs, lane) =>
    hosts.ask(cell.strategy as HostedStrategy, cell.kase.name, inputs, lane);

/** A loaded strategy answers here, behind the same guard a strategy's process uses. */
const threadAsk: Ask = async (cell, inputs) => {
  const strategy = cell.strategy as Strategy;
  return assembleAwaited(strategy, strategyInput(strategy, inputs));
};
