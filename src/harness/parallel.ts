/**
 * A study spread over worker threads. Each worker compiles one cell at a time; results come
 * back in any order and the caller puts them back in loop order. A watchdog stops a worker whose
 * compilation runs past a generous limit and turns that cell into an error row: a safety net a
 * correct strategy never meets, so results never depend on machine speed.
 */
import { Worker } from 'node:worker_threads';
import type { Row } from './types.js';

export interface CellText {
  readonly row: Row;
  readonly line: string;
}

import type { WorkerSetup } from './worker.js';

export interface ParallelOptions {
  readonly setup: WorkerSetup;
  readonly jobs: number;
  /** Per compilation, in milliseconds. */
  readonly timeout: number;
  /** Cell indices to compile, in the order to hand them out. */
  readonly indices: readonly number[];
  /** A cell's row and its compilations.jsonl line, as JSON text. */
  readonly onResult: (index: number, result: CellText) => void;
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
    // Per worker: the cells it holds, the first one running since `since`.
    const busy = new Map<Worker, { held: number[]; since: number }>();
    const workers = new Set<Worker>();
    const finish = (error?: unknown) => {
      clearInterval(watchdog);
      for (const w of workers) void w.terminate();
      if (error === undefined) resolve();
      else reject(error);
    };
    // Batches keep the messaging cheap; they shrink as the queue drains, to end together.
    const feed = (w: Worker) => {
      const size = Math.max(1, Math.min(64, Math.floor(queue.length / (o.jobs * 4))));
      const held = queue.splice(0, size);
      if (held.length === 0) return;
      busy.set(w, { held, since: Date.now() });
      w.postMessage(held);
    };
    const settle = () => {
      if (--pending === 0) finish();
    };
    const start = () => {
      const w = spawn(o.setup);
      workers.add(w);
      w.on('message', (m: { ready?: true; index?: number } & Partial<CellText>) => {
        if (m.ready) return feed(w);
        const job = busy.get(w);
        job?.held.shift();
        if (job) job.since = Date.now();
        o.onResult(m.index as number, m as CellText);
        settle();
        if (job && job.held.length === 0) {
          busy.delete(w);
          feed(w);
        }
      });
      w.on('error', (e) => finish(e));
      // A worker that dies on its own (out of memory, say) loses only the cell it held.
      w.on('exit', (code) => {
        const job = busy.get(w);
        workers.delete(w);
        if (job === undefined) return;
        lose(w, job, `worker exited with code ${code} while compiling`);
      });
    };
    // The running cell of a lost worker becomes an error row; the rest of its batch goes back.
    const lose = (w: Worker, job: { held: number[] }, message: string) => {
      busy.delete(w);
      workers.delete(w);
      void w.terminate();
      const [running, ...rest] = job.held;
      queue.unshift(...rest);
      if (running !== undefined) {
        o.onTimeout(running, message);
        settle();
      }
      if (pending > 0 && queue.length > 0) start();
    };
    // The clock here only decides when to give up on a stuck worker, never what is compiled.
    const watchdog = setInterval(
      () => {
        for (const [w, job] of busy) {
          if (Date.now() - job.since > o.timeout) {
            lose(w, job, `timed out: no answer within ${o.timeout} ms, stopped by the watchdog`);
          }
        }
      },
      Math.min(1000, Math.max(20, o.timeout / 10)),
    );
    for (let k = 0; k < Math.min(o.jobs, queue.length); k++) start();
  });
}
