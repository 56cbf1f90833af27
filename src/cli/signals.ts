/**
 * SIGINT and SIGTERM as a clean stop: while a command runs, either aborts its signal with a
 * `Stopped` reason instead of ending the process mid-write. A second one ends it at once.
 */

export type StopSignal = 'SIGINT' | 'SIGTERM';

/** Why a run stopped before its end. */
export class Stopped extends Error {
  readonly signal: StopSignal;

  constructor(signal: StopSignal) {
    super(`stopped by ${signal}`);
    this.signal = signal;
  }
}

/** Run `fn` with an AbortSignal that SIGINT or SIGTERM aborts. */
export async function stoppable<T>(fn: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const controller = new AbortController();
  const handlers = (['SIGINT', 'SIGTERM'] as const).map((name) => {
    const handler = () => controller.abort(new Stopped(name));
    process.once(name, handler);
    return [name, handler] as const;
  });
  try {
    return await fn(controller.signal);
  } finally {
    for (const [name, handler] of handlers) process.off(name, handler);
  }
}

/** A command line as a shell reads it back: words with spaces or quotes quoted. */
export const shellLine = (words: readonly string[]): string =>
  words.map((w) => (/^[\w@%+=:,./-]+$/.test(w) ? w : `'${w.replaceAll("'", "'\\''")}'`)).join(' ');
