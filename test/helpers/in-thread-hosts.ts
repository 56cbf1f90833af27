/**
 * A stand-in for `Hosts` (src/harness/hosts/hosts.ts) that runs each strategy in the test's own
 * thread. From the sources every strategy process starts under tsx, about a second of CPU each,
 * and a study starts one per strategy: for tests whose subject is a command's files, tables,
 * exit codes or input checks, not the process boundary, that start-up was most of their time.
 *
 *     vi.mock('../../src/harness/hosts/hosts.js', () => import('./in-thread-hosts.js'));
 *
 * What a strategy is given is what a host is given: a copy (the channel copies), frozen by the guard, the
 * ledger only for a strategy that reads it, and the guard's answer back. The boundary itself (a
 * process per strategy, timeouts, crashes, the permission model, `--jobs` across processes) stays
 * with the tests that are about it (slice, sweeps, the runs kill stops, hostile, plugin,
 * environment), which do not use this; slice.test.ts holds this stand-in's answers equal to
 * those of the processes.
 */
import { InputError } from '../../src/harness/errors.js';
import { type Answer, describeThrown } from '../../src/harness/hosts/answer-rules.js';
import { assembleAwaited } from '../../src/harness/hosts/guard.js';
import { infoOf, loadStrategyFile } from '../../src/harness/hosts/registry.js';
import { type Inputs, strategyInput } from '../../src/harness/hosts/strategy-input.js';
import type { HostedStrategy, Strategy, StrategyRef } from '../../src/harness/types.js';

// A mock outlives its file where files share modules (vitest.config.ts): it would quietly take
// the processes out of the tests that are about them.
if (process.env.CTXBENCH_SHARED_MODULES === '1')
  throw new Error('in-thread-hosts: list this test file in ISOLATED in vitest.config.ts');

/** Built as `new Hosts(options)` is; timeouts and process counts mean nothing in one thread. */
export class Hosts {
  private readonly loaded = new Map<string, Promise<Strategy>>();
  /** Per strategy file, the case whose inputs it holds and its copy of them, as a host keeps them. */
  private readonly held = new Map<string, { key: string; shared: Omit<Inputs, 'request' | 'ledger'> }>();

  private load(ref: StrategyRef): Promise<Strategy> {
    let s = this.loaded.get(ref.file);
    if (s === undefined) {
      s = loadStrategyFile(ref.file);
      this.loaded.set(ref.file, s);
    }
    return s;
  }

  async describe(refs: readonly StrategyRef[]): Promise<HostedStrategy[]> {
    const infos: HostedStrategy[] = [];
    for (const ref of refs) {
      try {
        infos.push({ ...infoOf(await this.load(ref)), file: ref.file });
      } catch (e) {
        throw new InputError(ref.file, `could not be loaded: ${describeThrown(e)}`);
      }
    }
    return infos;
  }

  /** Every cell asked of any stand-in, in the order asked: its strategy, its case and the job asking. */
  static readonly asked: {
    readonly strategy: string;
    readonly key: string;
    readonly lane: number | undefined;
  }[] = [];

  async ask(ref: StrategyRef, key: string, inputs: Inputs, lane?: number): Promise<Answer> {
    Hosts.asked.push({ strategy: ref.name, key, lane });
    const strategy = await this.load(ref);
    // An answer comes back on a later turn of the event loop, as a message from a process does.
    await new Promise((resolve) => setImmediate(resolve));
    let held = this.held.get(ref.file);
    if (held?.key !== key) {
      const { candidates, policy, annotations } = inputs;
      held = { key, shared: structuredClone({ candidates, policy, annotations }) };
      this.held.set(ref.file, held);
    }
    const copy = structuredClone({
      request: inputs.request,
      ...(strategy.readsLedger === true ? { ledger: inputs.ledger } : {}),
      ...(inputs.anytime === true ? { anytime: true } : {}),
    });
    return assembleAwaited(strategy, strategyInput(strategy, { ...held.shared, ...copy }));
  }

  close(): void {}
}
