/**
 * Files written by a worker thread while this one goes on: ingest writes gigabytes of pools, and
 * the writes themselves (the kernel's copy into the page cache) were a quarter of its time. The
 * lines go over in chunks of about a megabyte, at most `LIMIT` bytes of them waiting at any time
 * (the caller waits for the writer beyond that), in the order given, one file after another.
 */
import { Worker } from 'node:worker_threads';

/** A file written a line at a time. */
export interface Lines {
  add(line: string): void;
  close(): void;
}

/** Characters of chunks posted and not yet written, at most. */
const LIMIT = 32 << 20;
const CHUNK = 1 << 20;

// The worker's whole program: open, write, close as told; the first failure kept and reported at
// the end; every chunk's length given back through the shared counter, written or not.
const PROGRAM = `
const { parentPort, workerData } = require('node:worker_threads');
const fs = require('node:fs');
const waiting = new Int32Array(workerData);
let fd = null;
let failure = null;
parentPort.on('message', (m) => {
  try {
    if (failure !== null) {
    } else if (m.open !== undefined) fd = fs.openSync(m.open, 'w');
    else if (m.text !== undefined) fs.writeSync(fd, m.text);
    else if (m.close === true) { fs.closeSync(fd); fd = null; }
  } catch (e) {
    failure = String(e && e.message ? e.message : e);
  }
  if (m.text !== undefined) { Atomics.sub(waiting, 0, m.text.length); Atomics.notify(waiting, 0); }
  if (m.end === true) {
    if (fd !== null) try { fs.closeSync(fd); } catch {}
    parentPort.postMessage({ failure });
  }
});
`;

export class BackgroundWriter {
  private readonly worker: Worker;
  private readonly waiting = new Int32Array(new SharedArrayBuffer(4));
  private ended: Promise<void> | null = null;

  constructor() {
    this.worker = new Worker(PROGRAM, { eval: true, workerData: this.waiting.buffer });
  }

  private post(message: { open: string } | { text: string } | { close: true }): void {
    if ('text' in message) {
      // Wait while the writer is behind: the chunks would otherwise pile up in memory.
      for (let now = Atomics.load(this.waiting, 0); now > LIMIT; now = Atomics.load(this.waiting, 0))
        // A minute without one chunk written: the thread is gone, and waiting longer is a hang.
        if (Atomics.wait(this.waiting, 0, now, 60_000) === 'timed-out')
          throw new Error('writing in the background: the writer thread stopped answering');
      Atomics.add(this.waiting, 0, message.text.length);
    }
    this.worker.postMessage(message);
  }

  /** A file of lines, written in the background; `close` when done. */
  lines(file: string): Lines {
    this.post({ open: file });
    let buffer = '';
    const flush = (): void => {
      if (buffer !== '') this.post({ text: buffer });
      buffer = '';
    };
    return {
      add: (line) => {
        buffer += `${line}\n`;
        if (buffer.length > CHUNK) flush();
      },
      close: () => {
        flush();
        this.post({ close: true });
      },
    };
  }

  /** Every file written and closed, the thread gone; rejects with the first failure. */
  end(): Promise<void> {
    this.ended ??= new Promise<void>((resolve, reject) => {
      this.worker.once('message', (m: { failure: string | null }) => {
        void this.worker.terminate();
        if (m.failure === null) resolve();
        else reject(new Error(`writing in the background: ${m.failure}`));
      });
      this.worker.once('error', reject);
      this.worker.postMessage({ end: true });
    });
    return this.ended;
  }
}
