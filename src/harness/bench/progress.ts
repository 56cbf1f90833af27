/**
 * Progress of a bench run on stderr. A full run takes minutes (exact on the largest pool alone
 * takes three), so a silent terminal looks like a hang: on a terminal one line rewrites itself
 * (carriage return) with the task being timed and how many are done. Anywhere else (a log, CI, a
 * pipe) rewritten lines would pile up as clutter, so only the final line is written there.
 * `quiet` writes nothing at all.
 */

/** Where progress goes: Io satisfies it, so the harness needs nothing from the CLI. */
export interface ProgressSink {
  /** Whether stderr is a terminal, where a carriage return rewrites the line; absent means no. */
  readonly isTTY?: boolean;
  err(text: string): void;
}

export interface BenchProgress {
  /** Before the task is timed: `done` of `total` tasks are finished. */
  task(done: number, total: number, name: string): void;
  /** After the last task. */
  end(total: number): void;
}

export interface ProgressOptions {
  readonly quiet: boolean;
  /** Milliseconds, for the elapsed time of the final line; tests pass a fake clock. */
  readonly now?: () => number;
  /** Added to the final line after the count, e.g. `(200 ms of samples each)`. */
  readonly note?: string;
}

/** Beyond this a line may wrap on a narrow terminal, and a wrapped line cannot be rewritten. */
const WIDEST = 79;

/** `850 ms`, `12.3 s`, `6 min 49 s`: what a person reads at the end of a run. */
export function duration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const s = Math.round(ms / 1000);
  return `${Math.floor(s / 60)} min ${s % 60} s`;
}

export function benchProgress(sink: ProgressSink, options: ProgressOptions): BenchProgress {
  if (options.quiet) return { task: () => {}, end: () => {} };
  const now = options.now ?? (() => performance.now());
  const started = now();
  const tty = sink.isTTY === true;
  // The length of the line on screen, so that the next one can cover it without escape codes.
  let shown = 0;
  const rewrite = (text: string) => {
    const line = text.length > WIDEST ? `${text.slice(0, WIDEST - 1)}…` : text;
    sink.err(`\r${line.padEnd(shown)}`);
    shown = line.length;
  };
  return {
    task(done, total, name) {
      if (tty) rewrite(`bench ${done}/${total} done, timing ${name}`);
    },
    end(total) {
      const note = options.note ? ` ${options.note}` : '';
      const final = `benchmarked ${total} tasks${note} in ${duration(now() - started)}\n`;
      // Blank the progress line first: the final line may be shorter than it.
      sink.err(tty && shown > 0 ? `\r${' '.repeat(shown)}\r${final}` : final);
      shown = 0;
    },
  };
}
