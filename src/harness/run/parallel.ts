/**
 * A study spread over worker threads. Each worker compiles batches of cells and answers one
 * cell at a time; results come back in any order and the caller puts them back in loop order. A
 * watchdog stops a worker whose compilation runs past a generous limit and turns that cell into
 * an error row: a safety net a correct strategy never meets, so results never depend on machine
 * speed.
 */
import { Worker } from 'node:worker_threads';

/** What a worker needs to load the same corpus, ledger and strategies as the main thread. */
export interface WorkerSetup {
  readonly corpus: string;
  readonly policy?: string | undefined;
  readonly strategies: readonly string[];
}

/** A cell's row and its compilations.jsonl line, both as JSON text: what one job would write. */
export interface CellText {
  readonly row: string;
  readonly line: string;
}

export interface ParallelOptions {
  readonly setup: WorkerSetup;
  readonly jobs: number;
  /** Per compilation, in milliseconds. */
  readonly timeout: number;
  /** Cell indices to compile, in the order to hand them out. */
  readonly indices: readonly number[];
  readonly onResult: (index: number, result: CellText) => void;
  /** The error row of a cell whose worker was stopped or died. */
  readonly onLost: (index: number, message: string) => void;
}

/**
 * A worker runs this module's sibling `worker` file. From the compiled JavaScript that is plain;
 * from the TypeScript sources (the test runner) the worker first registers tsx, so that tests of
 * `--jobs` run the current source, never a stale build.
 */
function startWorker(setup: WorkerSetup): Worker {
  if (!import.meta.url.endsWith('.ts'))
    return new Worker(new URL('./worker.js', import.meta.url), { workerData: setup });
  const source = new URL('./worker.ts', import.meta.url).href;
  const tsx = import.meta.resolve('tsx/esm/api');
  const boot = `import(${JSON.stringify(tsx)}).then((api) => { api.register(); return import(${JSON.stringify(source)}); });`;
  return new Worker(boot, { eval: true, workerData: setup });
}

interface Job {
  /** The cells this worker holds; the first is the one running, since `since`. */
  readonly held: number[];
  since: number;
}

export function runParallel(o: ParallelOptions): Promise<void> {
  return new Promise((resolve, reject) => new Pool(o, resolve, reject).start());
}

/** The workers of one run, and what each holds. */
class Pool {
  private readonly o: ParallelOptions;
  private readonly queue: number[];
  private pending: number;
  private readonly busy = new Map<Worker, Job>();
  private readonly live = new Set<Worker>();
  private over = false;
  private watchdog: ReturnType<typeof setInterval> | undefined;
  private readonly resolve: () => void;
  private readonly reject: (e: unknown) => void;

  constructor(o: ParallelOptions, resolve: () => void, reject: (e: unknown) => void) {
    this.o = o;
    this.queue = [...o.indices];
    this.pending = this.queue.length;
    this.resolve = resolve;
    this.reject = reject;
  }

  start(): void {
    if (this.pending === 0) {
      this.resolve();
      return;
    }
    // The clock here only decides when to give up on a stuck worker, never what is compiled.
    this.watchdog = setInterval(() => this.patrol(), Math.min(1000, Math.max(20, this.o.timeout / 10)));
    for (let k = 0; k < Math.min(this.o.jobs, this.queue.length); k++) this.spawn();
  }

  private finish(error?: unknown): void {
    if (this.over) return;
    this.over = true;
    clearInterval(this.watchdog);
    // Nothing a worker says from here on counts: stop them all.
    for (const w of this.live) void w.terminate();
    this.live.clear();
    if (error === undefined) this.resolve();
    else this.reject(error);
  }

  private settle(): void {
    if (--this.pending === 0) this.finish();
  }

  /** Batches keep the messaging cheap; they shrink as the queue drains, to end together. */
  private feed(w: Worker): void {
    const size = Math.max(1, Math.min(64, Math.floor(this.queue.length / (this.o.jobs * 4))));
    const held = this.queue.splice(0, size);
    if (held.length === 0) return;
    this.busy.set(w, { held, since: Date.now() });
    w.postMessage(held);
  }

  /** A lost worker's running cell becomes an error row; the rest of its batch goes back. */
  private lose(w: Worker, message: string): void {
    const job = this.busy.get(w);
    this.busy.delete(w);
    this.live.delete(w);
    void w.terminate();
    if (this.over || job === undefined) return;
    const [running, ...rest] = job.held;
    this.queue.unshift(...rest);
    if (running !== undefined) {
      this.o.onLost(running, message);
      this.settle();
    }
    if (!this.over && this.queue.length > 0) this.spawn();
  }

  private spawn(): void {
    const w = startWorker(this.o.setup);
    this.live.add(w);
    w.on('message', (m: { ready?: true; index?: number } & Partial<CellText>) => this.hear(w, m));
    w.on('error', (e) => this.finish(e));
    // A worker that dies on its own (out of memory, say) loses only the cell it was on.
    w.on('exit', (code) => {
      if (this.live.has(w)) this.lose(w, `worker exited with code ${code} while compiling`);
    });
  }

  private hear(w: Worker, m: { ready?: true; index?: number } & Partial<CellText>): void {
    // A worker already stopped may still have answers in flight: they no longer count.
    if (this.over || !this.live.has(w)) return;
    if (m.ready) {
      this.feed(w);
      return;
    }
    const job = this.busy.get(w);
    if (job === undefined || job.held[0] !== m.index) {
      this.finish(new Error(`worker answered out of turn (${m.index})`));
      return;
    }
    job.held.shift();
    job.since = Date.now();
    this.o.onResult(m.index as number, m as CellText);
    this.settle();
    if (job.held.length === 0) {
      this.busy.delete(w);
      this.feed(w);
    }
  }

  private patrol(): void {
    for (const [w, job] of this.busy) {
      if (Date.now() - job.since > this.o.timeout)
        this.lose(w, `timed out: no answer within ${this.o.timeout} ms, stopped by the watchdog`);
    }
  }
}
