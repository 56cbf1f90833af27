/**
 * A study spread over worker threads. Each worker compiles batches of cells and answers one
 * cell at a time; results come back in any order and the caller puts them back in loop order. A
 * watchdog stops a worker whose compilation runs past a generous limit and turns that cell into
 * an error row: a safety net a correct strategy never meets, so results never depend on machine
 * speed.
 */
import { Worker } from 'node:worker_threads';
import type { WorkerSetup } from './worker.js';

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

// Workers are compiled JavaScript. Run from the sources (the test runner), this module takes
// them from dist/, which `npm test` builds first.
const WORKER = import.meta.url.endsWith('.ts')
  ? new URL('../../dist/src/harness/worker.js', import.meta.url)
  : new URL('./worker.js', import.meta.url);

interface Job {
  /** The cells this worker holds; the first is the one running, since `since`. */
  readonly held: number[];
  since: number;
}

export function runParallel(o: ParallelOptions): Promise<void> {
  const queue = [...o.indices];
  let pending = queue.length;
  return new Promise((resolve, reject) => {
    if (pending === 0) return resolve();
    const busy = new Map<Worker, Job>();
    const live = new Set<Worker>();
    let over = false;
    const finish = (error?: unknown) => {
      if (over) return;
      over = true;
      clearInterval(watchdog);
      // Nothing a worker says from here on counts: stop them all.
      for (const w of live) void w.terminate();
      live.clear();
      if (error === undefined) resolve();
      else reject(error);
    };
    const settle = () => {
      if (--pending === 0) finish();
    };
    // Batches keep the messaging cheap; they shrink as the queue drains, to end together.
    const feed = (w: Worker) => {
      const size = Math.max(1, Math.min(64, Math.floor(queue.length / (o.jobs * 4))));
      const held = queue.splice(0, size);
      if (held.length === 0) return;
      busy.set(w, { held, since: Date.now() });
      w.postMessage(held);
    };
    // A lost worker's running cell becomes an error row; the rest of its batch goes back.
    const lose = (w: Worker, message: string) => {
      const job = busy.get(w);
      busy.delete(w);
      live.delete(w);
      void w.terminate();
      if (over || job === undefined) return;
      const [running, ...rest] = job.held;
      queue.unshift(...rest);
      if (running !== undefined) {
        o.onLost(running, message);
        settle();
      }
      if (!over && queue.length > 0) start();
    };
    const start = () => {
      const w = new Worker(WORKER, { workerData: o.setup });
      live.add(w);
      w.on('message', (m: { ready?: true; index?: number } & Partial<CellText>) => {
        // A worker already stopped may still have answers in flight: they no longer count.
        if (over || !live.has(w)) return;
        if (m.ready) return feed(w);
        const job = busy.get(w);
        if (job === undefined || job.held[0] !== m.index)
          return finish(new Error(`worker answered out of turn (${m.index})`));
        job.held.shift();
        job.since = Date.now();
        o.onResult(m.index as number, m as CellText);
        settle();
        if (job.held.length === 0) {
          busy.delete(w);
          feed(w);
        }
      });
      w.on('error', (e) => finish(e));
      // A worker that dies on its own (out of memory, say) loses only the cell it was on.
      w.on('exit', (code) => {
        if (live.has(w)) lose(w, `worker exited with code ${code} while compiling`);
      });
    };
    // The clock here only decides when to give up on a stuck worker, never what is compiled.
    const watchdog = setInterval(
      () => {
        for (const [w, job] of busy) {
          if (Date.now() - job.since > o.timeout)
            lose(w, `timed out: no answer within ${o.timeout} ms, stopped by the watchdog`);
        }
      },
      Math.min(1000, Math.max(20, o.timeout / 10)),
    );
    for (let k = 0; k < Math.min(o.jobs, queue.length); k++) start();
  });
}
