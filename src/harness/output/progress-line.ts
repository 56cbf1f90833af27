/**
 * Progress of long work on stderr. On a terminal one line rewrites itself (carriage return) so
 * that a run of minutes never looks like a hang; anywhere else (a log, CI, a pipe) rewritten
 * lines would pile up as clutter, so only the final line is written; `quiet` writes nothing.
 */

/** Where progress goes: the CLI's Io satisfies it, so the harness needs nothing from the CLI. */
export interface ProgressSink {
  /** Whether stderr is a terminal, where a carriage return rewrites the line; absent means no. */
  readonly isTTY?: boolean;
  err(text: string): void;
}

export interface ProgressOptions {
  readonly quiet: boolean;
  /** Milliseconds, for the elapsed time of the final line; tests pass a fake clock. */
  readonly now?: () => number;
}

export interface ProgressLine {
  /** The line as it stands now; shown on a terminal only. */
  update(text: string): void;
  /** The last line, `in <elapsed>` appended; shown everywhere but under `quiet`. */
  end(text: string): void;
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

export function progressLine(sink: ProgressSink, options: ProgressOptions): ProgressLine {
  if (options.quiet) return { update: () => {}, end: () => {} };
  const now = options.now ?? (() => performance.now());
  const started = now();
  const tty = sink.isTTY === true;
  // The length of the line on screen, so that the next one can cover it without escape codes.
  let shown = 0;
  return {
    update(text) {
      if (!tty) return;
      const line = text.length > WIDEST ? `${text.slice(0, WIDEST - 1)}…` : text;
      sink.err(`\r${line.padEnd(shown)}`);
      shown = line.length;
    },
    end(text) {
      const final = `${text} in ${duration(now() - started)}\n`;
      // Blank the progress line first: the final line may be shorter than it.
      sink.err(tty && shown > 0 ? `\r${' '.repeat(shown)}\r${final}` : final);
      shown = 0;
    },
  };
}
