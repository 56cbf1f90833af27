/** Where a command writes; the real process or a test's buffers. */
export interface Io {
  out(text: string): void;
  err(text: string): void;
  /**
   * Whether stderr is a terminal, where a progress line can rewrite itself with a carriage
   * return; absent means no. Optional so that every Io written before it still is one.
   */
  readonly isTTY?: boolean;
}

export const processIo: Io = {
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
  // A getter: Node creates process.stderr on first use, which importing this module should not do.
  get isTTY() {
    return process.stderr.isTTY === true;
  },
};

/**
 * Collects output, for tests and for commands that run other commands. Not a terminal unless a
 * test says so, to see what a terminal would get.
 */
export function bufferIo(
  options: { readonly isTTY?: boolean } = {},
): Io & { stdout: string; stderr: string; readonly isTTY: boolean } {
  const io = {
    stdout: '',
    stderr: '',
    isTTY: options.isTTY ?? false,
    out(text: string) {
      io.stdout += text;
    },
    err(text: string) {
      io.stderr += text;
    },
  };
  return io;
}

/**
 * Exit codes of the CLI contract (docs/exit-codes.md), and the shell's 128 + n for a run stopped
 * by signal n. `internal` is a bug of ctxbench's own, kept apart from 1 so that a script can tell a
 * crash from a failed check.
 */
export const EXIT = {
  ok: 0,
  checkFailed: 1,
  badInput: 2,
  internal: 3,
  /** `compile --strict` only: a compilation that fails its own validation. */
  invalid: 4,
  /** `pack` only: the strategy refused, so there is no context to print. */
  refused: 5,
  SIGINT: 130,
  SIGTERM: 143,
} as const;
export type ExitCode = (typeof EXIT)[keyof typeof EXIT];
