/**
 * Progress of a bench run (output/progress-line.ts says how it shows): a full run takes minutes, exact
 * on the largest pool alone three, so the line names the task being timed and how many are done.
 */

import { count } from '../format.js';
import { type ProgressOptions as LineOptions, type ProgressSink, progressLine } from '../output/index.js';

export interface BenchProgress {
  /** Before the task is timed: `done` of `total` tasks are finished. */
  task(done: number, total: number, name: string): void;
  /** After the last task. */
  end(total: number): void;
}

export interface ProgressOptions extends LineOptions {
  /** Added to the final line after the count, e.g. `(200 ms of samples each)`. */
  readonly note?: string;
}

export function benchProgress(sink: ProgressSink, options: ProgressOptions): BenchProgress {
  const line = progressLine(sink, options);
  return {
    task: (done, total, name) => line.update(`bench ${done}/${total} done, timing ${name}`),
    end: (total) => line.end(`benchmarked ${count(total, 'task')}${options.note ? ` ${options.note}` : ''}`),
  };
}
