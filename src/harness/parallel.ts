/**
 * A study spread over worker threads. Each worker compiles one cell at a time; results come
 * back in any order and the caller puts them back in loop order. A watchdog stops a worker whose
 * compilation runs past a generous limit and turns that cell into an error row: a safety net a
 * correct strategy never meets, so results never depend on machine speed.
 */
import { Worker } from 'node:worker_threads';
import type { CellResult } from './runner.js';
import type { WorkerSetup } from './worker.js';

export interface ParallelOptions {
  readonly setup: WorkerSetup;
  readonly jobs: number;
  /** Per compilation, in milliseconds. */
  readonly timeout: number;
  /** Cell indices to compile, in the order to hand them out. */
  readonly indices: readonly number[];
  readonly onResult: (index: number, result: CellResult) => void;
  /** The error row of a cell whose worker was stopped. */
  readonly onTimeout: (index: number, message: string) => void;
}

// Workers are compiled JavaScript. Run from the sources (the test runner), this module takes
// them from dist/, which `npm test` builds first.
const WORKER = import.meta.url.endsWith('.ts')
  ? new URL('../../dist/src/harness/worker.js', import.meta.url)
  : new URL('./worker.js', import.meta.url);

function spawn(setup: WorkerSetup): Worker {
  return new Worker(WORKER, { workerData: setup });
}

export function runParallel(o: ParallelOptions): Promise<void> {
  const queue = [...o.indices];
  let pending = queue.length;
  return new Promise((resolve, reject) => {
    if (pending === 0) return resolve();
    const busy = new Map<Worker, { index: number; since: number }>();
    const workers = new Set<Worker>();
    const finish = (error?: unknown) => {
      clearInterval(watchdog);
      for (const w of workers) void w.terminate();
      if (error === undefined) resolve();
      else reject(error);
    };
    const feed = (w: Worker) => {
      const index = queue.shift();
      if (index === undefined) return;
      busy.set(w, { index, since: Date.now() });
      w.postMessage(index);
    };
    const settle = () => {
      if (--pending === 0) finish();
    };
    const start = () => {
      const w = spawn(o.setup);
      workers.add(w);
      w.on('message', (m: { ready?: true; index?: number } & Partial<CellResult>) => {
        if (m.ready) return feed(w);
        busy.delete(w);
        o.onResult(m.index as number, m as CellResult);
        settle();
        feed(w);
      });
      w.on('error', (e) => finish(e));
      // A worker that dies on its own (out of memory, say) loses only the cell it held.
      w.on('exit', (code) => {
        const job = busy.get(w);
        workers.delete(w);
        if (job === undefined) return;
        busy.delete(w);
        o.onTimeout(job.index, `worker exited with code ${code} while compiling`);
        settle();
        if (pending > 0 && queue.length > 0) start();
      });
    };
    // The clock here only decides when to give up on a stuck worker, never what is compiled.
    const watchdog = setInterval(
      () => {
        for (const [w, job] of busy) {
          if (Date.now() - job.since <= o.timeout) continue;
          busy.delete(w);
          workers.delete(w);
          void w.terminate();
          o.onTimeout(job.index, `timed out: no answer within ${o.timeout} ms, stopped by the watchdog`);
          settle();
          if (pending > 0 && queue.length > 0) start();
        }
      },
      Math.min(1000, Math.max(20, o.timeout / 10)),
    );
    for (let k = 0; k < Math.min(o.jobs, queue.length); k++) start();
  });
}
