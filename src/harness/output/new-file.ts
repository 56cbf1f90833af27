/**
 * The files a command makes in a place others may have put things first (a run folder, a killed
 * run's `<out>.partial`, the folder of an `--out`): opened so that no link is followed and no
 * FIFO waited on, a name already taken by something else named in one line (exit 2). Writing
 * through a link someone left would write their chosen file with the user's rights.
 */
import fs from 'node:fs';
import { InputError } from '../errors.js';

const { O_WRONLY, O_CREAT, O_EXCL, O_NOFOLLOW, O_NONBLOCK, O_APPEND, O_TRUNC } = fs.constants;

/**
 * A new file at `file` holding `data`, made here and now with `mode` (less the umask): the open
 * fails on anything already at that name, a link above all (`O_EXCL` with `O_CREAT` never
 * follows one).
 */
export function writeNewFile(file: string, data: string | Buffer, mode = 0o666): void {
  const fd = fs.openSync(file, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, mode);
  try {
    const bytes = typeof data === 'string' ? Buffer.from(data) : data;
    for (let at = 0; at < bytes.length; ) at += fs.writeSync(fd, bytes, at);
  } finally {
    fs.closeSync(fd);
  }
}

/** `file` removed when it is there and not a folder; a link goes itself, never what it leads to. */
export function unlinkIfThere(file: string): void {
  try {
    fs.unlinkSync(file);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
  }
}

/** `file` replaced by a new one holding `data`: whatever held the name goes, not what it leads to. */
export function replaceFile(file: string, data: string | Buffer, mode?: number): void {
  unlinkIfThere(file);
  writeNewFile(file, data, mode);
}

/**
 * A descriptor to write `file` with, a regular file of this folder's own: created or emptied, or
 * with `append` kept as it is. A link there is refused (ELOOP), a FIFO too (ENXIO without a
 * reader; with one, by its kind), each in one line naming the file.
 */
export function openOwnFile(file: string, how: 'append' | 'truncate' | 'keep'): number {
  const flags = how === 'append' ? O_APPEND : how === 'truncate' ? O_TRUNC : 0;
  let fd: number;
  try {
    fd = fs.openSync(file, O_WRONLY | O_CREAT | O_NOFOLLOW | O_NONBLOCK | flags, 0o666);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code ?? 'unwritable';
    const why = code === 'ELOOP' ? 'it is a link' : code === 'ENXIO' ? 'it is a FIFO' : code;
    throw new InputError(file, `cannot write file (${why}): a run's own file is a regular file`);
  }
  if (fs.fstatSync(fd).isFile()) return fd;
  fs.closeSync(fd);
  throw new InputError(file, "cannot write file: it is not a regular file, as a run's own files are");
}
