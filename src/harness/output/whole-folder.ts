/**
 * Output folders written whole or not at all: everything goes into a sibling `<out>.partial`
 * folder first and moves into place with one rename, so an interrupted or failed run leaves
 * nothing complete-looking. The partial folder names its owner's pid: a run that was killed
 * leaves one that the next run into the same place removes, or continues (`study --resume`).
 */
import fs from 'node:fs';
import path from 'node:path';
import { CORPUS_MANIFEST, readBytes } from '../corpus/index.js';
import { UsageError } from '../errors.js';
import { BackgroundWriter, type Lines } from './background.js';
import { openOwnFile, replaceFile } from './new-file.js';

/** Appends lines to a file through a buffer: a run's compilations outgrow any single string. */
export class LineFile implements Lines {
  private readonly fd: number;
  private buffer = '';

  /** `append`: keep what the file holds (a resumed run's finished lines). */
  constructor(file: string, append = false) {
    // A resumed run's folder was left for anyone to reach: a link or FIFO in it is refused, not written through.
    this.fd = openOwnFile(file, append ? 'append' : 'truncate');
  }

  add(line: string): void {
    this.buffer += `${line}\n`;
    if (this.buffer.length > 1 << 20) this.flush();
  }

  flush(): void {
    fs.writeSync(this.fd, this.buffer);
    this.buffer = '';
  }

  close(): void {
    this.flush();
    fs.closeSync(this.fd);
  }
}

/** The file in a partial folder that names the process writing it. */
const OWNER = '.owner';

/** Whether a process is running: the owner of a partial folder, say. */
export function alive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    // EPERM: it runs, as someone else.
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** A pid is a few digits: a longer file, a FIFO or a device left in its place is no owner. */
const OWNER_BYTES = 32;

const ownerOf = (partial: string): number => {
  try {
    return Number(readBytes(path.join(partial, OWNER), OWNER_BYTES).toString('utf8'));
  } catch {
    return Number.NaN;
  }
};

/**
 * Remove what killed runs into `target` left behind: a partial folder whose owner is gone (unless
 * `keep`), and the `<out>.partial-<pid>` folders of earlier versions. A partial folder whose
 * owner still runs is another run at work: that stops this one.
 */
function clearLeftovers(target: string, keep: boolean): void {
  const partial = `${target}.partial`;
  if (fs.existsSync(partial)) {
    const owner = ownerOf(partial);
    if (owner !== process.pid && alive(owner))
      throw new UsageError(`${target} is being written by another ctxbench (pid ${owner})`);
    if (!keep) fs.rmSync(partial, { recursive: true, force: true });
  }
  for (const [file, pid] of pidSiblings(target, '.partial-', ''))
    if (!alive(pid)) fs.rmSync(file, { recursive: true, force: true });
}

/** Siblings of `target` named `<target><before><pid><after>`, with their pids. */
export function pidSiblings(target: string, before: string, after: string): [string, number][] {
  const dir = path.dirname(target);
  const prefix = `${path.basename(target)}${before}`;
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .filter((f) => f.startsWith(prefix) && f.endsWith(after))
    .map((f) => [f, f.slice(prefix.length, f.length - after.length)] as const)
    .filter(([, pid]) => /^\d+$/.test(pid))
    .map(([f, pid]) => [path.join(dir, f), Number(pid)]);
}

export class FolderWriter {
  private readonly target: string;
  readonly partial: string;
  private background: BackgroundWriter | null = null;

  /** `resume`: keep a partial folder a killed run left, to continue it. */
  constructor(out: string, resume = false) {
    this.target = path.resolve(out);
    this.partial = `${this.target}.partial`;
    clearLeftovers(this.target, resume);
    fs.mkdirSync(this.partial, { recursive: true });
    // A kept folder's .owner may be a link or a FIFO someone left: replaced, never written through.
    replaceFile(path.join(this.partial, OWNER), String(process.pid));
  }

  write(name: string, text: string): void {
    fs.mkdirSync(path.dirname(path.join(this.partial, name)), { recursive: true });
    replaceFile(path.join(this.partial, name), text);
  }

  lines(name: string, append = false): LineFile {
    return new LineFile(path.join(this.partial, name), append);
  }

  /** `lines`, written by a worker thread while this one goes on (background.ts): for gigabytes. */
  linesInBackground(name: string): Lines {
    this.background ??= new BackgroundWriter();
    return this.background.lines(path.join(this.partial, name));
  }

  /** Every background file written (the first failure thrown): before the folder moves or goes. */
  async settle(): Promise<void> {
    const background = this.background;
    this.background = null;
    await background?.end();
  }

  commit(): void {
    fs.rmSync(path.join(this.partial, OWNER), { force: true });
    fs.rmSync(this.target, { recursive: true, force: true });
    fs.renameSync(this.partial, this.target);
  }

  abort(): void {
    fs.rmSync(this.partial, { recursive: true, force: true });
  }

  /** Leave the partial folder for a later run to continue, owned by nobody. */
  release(): void {
    fs.rmSync(path.join(this.partial, OWNER), { force: true });
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

/** `writeWhole` for a fill that must wait (report.html renders its charts asynchronously). */
export async function writeWholeAsync(out: string, fill: (w: FolderWriter) => Promise<void>): Promise<void> {
  const w = new FolderWriter(out);
  try {
    await fill(w);
    await w.settle();
    w.commit();
  } catch (e) {
    // A background write still going would land in the folder being removed.
    await w.settle().catch(() => undefined);
    w.abort();
    throw e;
  }
}

/**
 * Whether `dir` holds a manifest.json with a top-level `block` (`generator`, `ingest`): how a
 * command recognises a corpus it wrote itself. A manifest over `maxBytes` is not one of them.
 */
export function manifestHas(dir: string, block: string, maxBytes: number): boolean {
  try {
    const file = path.join(dir, CORPUS_MANIFEST);
    // Read no further than `maxBytes`, and only a regular file: a FIFO would block the read.
    const manifest: unknown = JSON.parse(readBytes(file, maxBytes).toString('utf8'));
    return typeof manifest === 'object' && manifest !== null && block in manifest;
  } catch {
    return false;
  }
}

/**
 * An existing non-empty `out` is replaced only with `force`, and only when it is our own output:
 * it holds one of the files that mark it (`marks`), or, for output those files cannot tell apart
 * from another command's (a corpus `ingest` wrote has a manifest.json, as a run folder has), the
 * command's own test says so. `--force` never deletes a folder that is not ours.
 */
export function checkOut(
  out: string,
  force: boolean,
  marks: readonly string[] | { readonly ours: (dir: string) => boolean; readonly what: string },
): void {
  if (!fs.existsSync(out)) return;
  if (!fs.statSync(out).isDirectory()) throw new UsageError(`${out} exists and is not a folder`);
  if (fs.readdirSync(out).length === 0) return;
  if (!force) throw new UsageError(`${out} is not empty (use --force to replace it)`);
  if ('ours' in marks) {
    if (!marks.ours(out)) throw new UsageError(`refusing to replace ${out}: it is not ${marks.what}`);
  } else if (!marks.some((m) => fs.existsSync(path.join(out, m)))) {
    throw new UsageError(
      `refusing to replace ${out}: it holds none of ${marks.join(', ')}, so it is not ctxbench output`,
    );
  }
}
