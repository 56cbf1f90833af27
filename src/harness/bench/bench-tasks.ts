/**
 * Regression benchmarks: every strategy on every case, the whole study, and every strategy on
 * generated pools of growing size, timed with tinybench (warm-up, repeated samples, median and
 * median absolute deviation). A saved run is a baseline: `bench-compare.ts` flags a later run's
 * slow-downs beyond what the two runs' own spread explains, and, as a regression of another
 * kind, any changed outcome.
 */
import { createHash } from 'node:crypto';
import os from 'node:os';
import { Bench } from 'tinybench';
import { defaultPolicy } from '../../compiler/index.js';
import { readJsonFile } from '../corpus/index.js';
import { InputError } from '../errors.js';
import { generateCase } from '../generate/index.js';
import { caseInputs, strategyInput } from '../hosts/index.js';
import { compileAwaited } from '../session/index.js';
import { runStudy } from '../study/index.js';
import type { CaseLedger, Corpus, Strategy, StrategyInput } from '../types.js';
import { ALL_PEERS, STRATEGY_ERROR } from '../vocabulary.js';
import type { BenchProgress } from './bench-progress.js';

export interface BenchTask {
  readonly name: string;
  /** What the task produced: a bundle hash, a refusal, or a digest of a study's rows. */
  readonly run: () => string | Promise<string>;
}

export interface BenchRecord {
  readonly name: string;
  readonly median_ms: number;
  readonly mad_ms: number;
  readonly p75_ms: number;
  readonly samples: number;
  readonly outcome: string;
}

export interface BenchFile {
  readonly ctxbench: string;
  readonly node: string;
  readonly machine: { readonly cpus: number; readonly model: string; readonly platform: string };
  readonly created_at: string;
  readonly tasks: readonly BenchRecord[];
}

/** What a compilation produced, for telling a changed outcome from a slow-down. */
const compiledOutcome = async (strategy: Strategy, input: StrategyInput): Promise<string> => {
  const out = await compileAwaited(strategy, input);
  if (out.outcome === 'bundle') return `bundle ${out.record.bundle_hash}`;
  return `refusal ${out.outcome === 'refusal' ? out.reason : STRATEGY_ERROR}`;
};

const studyTask = (
  name: string,
  corpus: Corpus,
  ledger: ReadonlyMap<string, CaseLedger>,
  strategies: readonly Strategy[],
): BenchTask => ({
  name,
  // In this thread: the study's own work, not the start-up of a process per strategy.
  run: async () => {
    const { rows } = await runStudy({ corpus, ledger, where: { in: 'thread', strategies } });
    return `rows ${createHash('sha256').update(JSON.stringify(rows)).digest('hex')}`;
  },
});

const isPeer = (s: Strategy): boolean => (ALL_PEERS as readonly string[]).includes(s.name);
const WITHOUT_PEERS = 'without peers';

/**
 * One task per strategy and case (at the case's medium budget), and one for the whole study;
 * when the strategies hold peers and others, one more for the study without the peers, so that
 * `peersCost` can put the two side by side (issue 20's bar: at most 2x).
 */
export function corpusTasks(
  corpus: Corpus,
  ledger: ReadonlyMap<string, CaseLedger>,
  strategies: readonly Strategy[],
): BenchTask[] {
  const tasks: BenchTask[] = [];
  for (const s of strategies) {
    for (const kase of corpus.cases) {
      const input = strategyInput(s, caseInputs(kase, 'medium', corpus.policy, ledger.get(kase.name)));
      tasks.push({ name: `${s.name} ${kase.name}`, run: () => compiledOutcome(s, input) });
    }
  }
  tasks.push(studyTask(`study ${corpus.name}`, corpus, ledger, strategies));
  const others = strategies.filter((s) => !isPeer(s));
  if (others.length > 0 && others.length < strategies.length)
    tasks.push(studyTask(`study ${corpus.name} ${WITHOUT_PEERS}`, corpus, ledger, others));
  return tasks;
}

/** The whole study with the peers against without them, by median, when both were timed. */
export function peersCost(
  records: readonly BenchRecord[],
  corpusName: string,
): { readonly with_ms: number; readonly without_ms: number; readonly ratio: number } | null {
  const median = (name: string) => records.find((r) => r.name === name)?.median_ms;
  const withPeers = median(`study ${corpusName}`);
  const without = median(`study ${corpusName} ${WITHOUT_PEERS}`);
  if (withPeers === undefined || without === undefined || without <= 0) return null;
  return { with_ms: withPeers, without_ms: without, ratio: withPeers / without };
}

/** Every strategy on a generated pool of each size (seeded, at its medium budget). */
export function scaleTasks(strategies: readonly Strategy[], sizes: readonly number[]): BenchTask[] {
  return sizes.flatMap((size) => {
    const g = generateCase(`bench-${size}`, size, `bench-${size}`);
    return strategies.map((s) => {
      const input = strategyInput(s, {
        request: g.request,
        candidates: g.candidates,
        policy: defaultPolicy(),
        ledger: g.ledger,
      });
      return { name: `${s.name} @${size}`, run: () => compiledOutcome(s, input) };
    });
  });
}

/**
 * Time the tasks one after another; each task's outcome is taken from a run outside the timing.
 * `progress` hears of each task before it is timed and of the end after the last.
 */
export async function runBench(
  tasks: readonly BenchTask[],
  options: { readonly time: number; readonly warmup: number; readonly progress?: BenchProgress },
): Promise<BenchRecord[]> {
  const records: BenchRecord[] = [];
  for (const [done, task] of tasks.entries()) {
    options.progress?.task(done, tasks.length, task.name);
    const started = performance.now();
    const first = task.run();
    const outcome = await first;
    // A task that takes seconds (exact on a large pool) gets two timed runs, not a time window.
    const slow = performance.now() - started > 1000;
    const bench = slow
      ? new Bench({ time: 0, warmupTime: 0, warmup: false, iterations: 2 })
      : new Bench({ time: options.time, warmupTime: options.warmup, iterations: 5 });
    // A synchronous task is timed as one: wrapping it in a promise would time the wrapping too.
    bench.add(
      task.name,
      first instanceof Promise
        ? async () => {
            await task.run();
          }
        : () => {
            task.run();
          },
    );
    await bench.run();
    const result = bench.tasks[0]?.result;
    if (result === undefined || !('latency' in result))
      throw new Error(`benchmark ${task.name} did not complete`);
    const l = result.latency;
    records.push({
      name: task.name,
      median_ms: l.p50,
      mad_ms: l.mad,
      p75_ms: l.p75,
      samples: l.samplesCount,
      outcome,
    });
  }
  options.progress?.end(tasks.length);
  return records;
}

export function benchFile(version: string, tasks: readonly BenchRecord[], createdAt: string): BenchFile {
  const cpus = os.cpus();
  return {
    ctxbench: version,
    node: process.version,
    machine: {
      cpus: cpus.length,
      model: cpus[0]?.model ?? 'unknown',
      platform: `${os.platform()} ${os.arch()}`,
    },
    created_at: createdAt,
    tasks,
  };
}

/**
 * A file `bench --save` wrote, to compare a later run with. The fields the comparison reads are
 * checked here, so that a hand-edited or truncated baseline stops with one line naming the task
 * and the field instead of comparing NaN with every median and flagging nothing.
 */
export function readBaseline(file: string): BenchFile {
  const b = readJsonFile(file) as BenchFile | null;
  if (!b || !Array.isArray(b.tasks)) throw new InputError(file, 'not a ctxbench bench file (no "tasks")');
  for (const [k, t] of (b.tasks as readonly unknown[]).entries()) {
    const r = t as Partial<Record<keyof BenchRecord, unknown>> | null;
    const where = `tasks[${k}]`;
    if (typeof r !== 'object' || r === null) throw new InputError(file, 'not a task record', where);
    if (typeof r.name !== 'string') throw new InputError(file, 'name: not a string', where);
    for (const field of ['median_ms', 'mad_ms'] as const) {
      const v = r[field];
      if (typeof v !== 'number' || !Number.isFinite(v) || v < 0)
        throw new InputError(file, `${field}: not a number of milliseconds >= 0`, where);
    }
    if (typeof r.outcome !== 'string') throw new InputError(file, 'outcome: not a string', where);
  }
  return b;
}
