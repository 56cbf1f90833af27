/**
 * Output folders written whole or not at all: everything goes into a sibling folder first and
 * moves into place with one rename, so an interrupted or failed run leaves nothing half-written.
 */
import fs from 'node:fs';
import path from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import { UsageError } from '../input/errors.js';

/** Appends lines to a file through a buffer: a run's compilations outgrow any single string. */
export class LineFile {
  private readonly fd: number;
  private buffer = '';

  constructor(file: string) {
    this.fd = fs.openSync(file, 'w');
  }

  add(line: string): void {
    this.buffer += `${line}\n`;
    if (this.buffer.length > 1 << 20) this.flush();
  }

  private flush(): void {
    fs.writeSync(this.fd, this.buffer);
    this.buffer = '';
  }

  close(): void {
    this.flush();
    fs.closeSync(this.fd);
  }
}

/** Each line of a file, read in chunks: the file may be larger than any string. */
export function forEachLine(file: string, fn: (line: string) => void): void {
  const fd = fs.openSync(file, 'r');
  const chunk = Buffer.alloc(1 << 20);
  // A character may straddle two chunks: the decoder holds its first bytes back until the rest come.
  const decoder = new StringDecoder('utf8');
  let rest = '';
  try {
    for (let n = fs.readSync(fd, chunk); n > 0; n = fs.readSync(fd, chunk)) {
      const lines = (rest + decoder.write(chunk.subarray(0, n))).split('\n');
      rest = lines.pop() as string;
      for (const line of lines) fn(line);
    }
    rest += decoder.end();
    if (rest !== '') fn(rest);
  } finally {
    fs.closeSync(fd);
  }
}

export class FolderWriter {
  private readonly target: string;
  readonly partial: string;

  constructor(out: string) {
    this.target = path.resolve(out);
    this.partial = `${this.target}.partial-${process.pid}`;
    fs.rmSync(this.partial, { recursive: true, force: true });
    fs.mkdirSync(this.partial, { recursive: true });
  }

  write(name: string, text: string): void {
    fs.mkdirSync(path.dirname(path.join(this.partial, name)), { recursive: true });
    fs.writeFileSync(path.join(this.partial, name), text);
  }

  lines(name: string): LineFile {
    return new LineFile(path.join(this.partial, name));
  }

  commit(): void {
    fs.rmSync(this.target, { recursive: true, force: true });
    fs.renameSync(this.partial, this.target);
  }

  abort(): void {
    fs.rmSync(this.partial, { recursive: true, force: true });
  }
}

/** Build a folder with `fill`; on any failure nothing is left behind. */
export function writeWhole(out: string, fill: (w: FolderWriter) => void): void {
  const w = new FolderWriter(out);
  try {
    fill(w);
    w.commit();
  } catch (e) {
    w.abort();
    throw e;
  }
}

/**
 * An existing non-empty `out` is replaced only with `force`, and only when it holds one of the
 * files that mark our own output (`marks`): `--force` never deletes a folder that is not ours.
 */
export function checkOut(out: string, force: boolean, marks: readonly string[]): void {
  if (!fs.existsSync(out)) return;
  if (!fs.statSync(out).isDirectory()) throw new UsageError(`${out} exists and is not a folder`);
  if (fs.readdirSync(out).length === 0) return;
  if (!force) throw new UsageError(`${out} is not empty (use --force to replace it)`);
  if (!marks.some((m) => fs.existsSync(path.join(out, m)))) {
    throw new UsageError(
      `refusing to replace ${out}: it holds none of ${marks.join(', ')}, so it is not ctxbench output`,
    );
  }
}
