/** Where a command writes; the real process or a test's buffers. */
export interface Io {
  out(text: string): void;
  err(text: string): void;
}

export const processIo: Io = {
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
};

/** Collects output, for tests and for commands that run other commands. */
export function bufferIo(): Io & { stdout: string; stderr: string } {
  const io = {
    stdout: '',
    stderr: '',
    out(text: string) {
      io.stdout += text;
    },
    err(text: string) {
      io.stderr += text;
    },
  };
  return io;
}

/** Exit codes of the CLI contract, and the shell's 128 + n for a run stopped by signal n. */
export const EXIT = { ok: 0, checkFailed: 1, badInput: 2, SIGINT: 130, SIGTERM: 143 } as const;
export type ExitCode = (typeof EXIT)[keyof typeof EXIT];
