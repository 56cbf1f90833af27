/** Reading input files, and finding the package's own files (the reference corpus, its ledger). */
import fs from 'node:fs';
import { InputError } from '../errors.js';
import { decodeText, parseJson } from './json-text.js';

/**
 * The largest input file: a JavaScript string holds at most 2^29 - 24 UTF-16 units, so a JSON
 * file beyond that cannot be parsed at all (docs/reliability.md, "Limits").
 */
export const MAX_TEXT_BYTES = 2 ** 29 - 24;

/** What a file that is not a regular one is, for the line that refuses it. */
export function fileKind(s: fs.Stats): string {
  if (s.isSymbolicLink()) return 'a link';
  if (s.isDirectory()) return 'a folder';
  if (s.isFIFO()) return 'a FIFO';
  if (s.isSocket()) return 'a socket';
  if (s.isCharacterDevice() || s.isBlockDevice()) return 'a device';
  return s.isFile() ? 'a file' : 'not a regular file';
}

/**
 * `file` opened for reading, a regular file, or stop with one line naming it. Opened without
 * waiting (a FIFO nobody writes would hold the command for ever) and checked on the open file: an
 * input folder is anybody's (a run folder, a corpus), and a FIFO, a socket or a device (a link to
 * `/dev/zero`) in it is no input. A link is followed to what it leads to, as before.
 */
export function openRegular(file: string): number {
  let fd: number;
  try {
    fd = fs.openSync(file, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code ?? 'unreadable';
    throw new InputError(file, `cannot read file (${code})`);
  }
  const s = fs.fstatSync(fd);
  if (s.isFile()) return fd;
  fs.closeSync(fd);
  throw new InputError(file, `cannot read file: it is ${fileKind(s)}, not a regular file`);
}

/**
 * Whether anything is at `file`: unlike `fs.existsSync`, a link that leads nowhere (to a `/proc`
 * file this machine lacks, say) counts, so a reader opens it and says why it cannot be read
 * instead of taking the file for absent.
 */
export function isThere(file: string): boolean {
  try {
    return fs.lstatSync(file, { throwIfNoEntry: false }) !== undefined;
  } catch {
    return false;
  }
}

/** Bytes read into `buf` until it is full or the file ends; how many. */
function fill(fd: number, buf: Buffer): number {
  let got = 0;
  for (let n = 1; n > 0 && got < buf.length; got += n) n = fs.readSync(fd, buf, got, buf.length - got, null);
  return got;
}

/**
 * A file's bytes, at most `max` of them, or stop with one line naming it (unreadable, not a file,
 * larger than `max`: by default what one string can hold). The bound holds whatever the file says
 * of its size: a `/proc` file says 0 and reads on.
 */
export function readBytes(file: string, max: number = MAX_TEXT_BYTES): Buffer {
  const fd = openRegular(file);
  const size = fs.fstatSync(fd).size;
  const tooLarge = (n: number) =>
    new InputError(
      file,
      max === MAX_TEXT_BYTES
        ? `too large: ${n} bytes, over the ${MAX_TEXT_BYTES} one JSON text can hold`
        : `too large: ${n} bytes, over the ${max} it may hold`,
    );
  try {
    if (size > max) throw tooLarge(size);
    // Its measured size and one byte more; a file that grew meanwhile reads on, to the bound.
    const parts = [Buffer.allocUnsafe(size + 1)];
    let got = fill(fd, parts[0] as Buffer);
    if (got <= size) return (parts[0] as Buffer).subarray(0, got);
    for (let n = got; n > 0 && got <= max; got += n) {
      const chunk = Buffer.allocUnsafe(Math.min(1 << 20, max + 1 - got));
      n = fill(fd, chunk);
      parts.push(chunk.subarray(0, n));
    }
    if (got > max) throw tooLarge(got);
    return Buffer.concat(parts);
  } catch (e) {
    if (e instanceof InputError) throw e;
    throw new InputError(file, `cannot read file (${(e as NodeJS.ErrnoException).code ?? 'unreadable'})`);
  } finally {
    fs.closeSync(fd);
  }
}

/** A text file as UTF-8, or stop with one line naming it (unreadable, UTF-16, invalid bytes). */
export function readTextFile(file: string): string {
  const decoded = decodeText(readBytes(file));
  if ('problem' in decoded) throw new InputError(file, decoded.problem);
  return decoded.text;
}

/**
 * A text file's lines, each decoded on its own, so that one line of bad bytes is that line's
 * problem and not the file's; a file in UTF-16 is refused whole. A final newline ends the last
 * line rather than starting an empty one.
 */
export function readTextLines(file: string): ({ readonly text: string } | { readonly problem: string })[] {
  const bytes = readBytes(file);
  const whole = decodeText(bytes.subarray(0, 2));
  if ('problem' in whole && /UTF-16/.test(whole.problem)) throw new InputError(file, whole.problem);
  const lines: Buffer[] = [];
  for (let start = 0; start < bytes.length; ) {
    const end = bytes.indexOf(0x0a, start);
    lines.push(bytes.subarray(start, end < 0 ? bytes.length : end));
    start = end < 0 ? bytes.length : end + 1;
  }
  return lines.map((line) => decodeText(line));
}

/** Parse a JSON file, or stop with one line naming it and where its syntax fails. */
export function readJsonFile(file: string): unknown {
  const parsed = parseJson(readTextFile(file));
  if ('problem' in parsed) throw new InputError(file, parsed.problem);
  return parsed.value;
}

/** The values of a JSON Lines file, each with its line number; a bad line stops with it named. */
export function readJsonLines(file: string): { readonly line: number; readonly value: unknown }[] {
  const out: { line: number; value: unknown }[] = [];
  readTextFile(file)
    .split('\n')
    .forEach((text, k) => {
      if (text.trim() === '') return;
      const parsed = parseJson(text);
      if ('problem' in parsed) throw new InputError(file, parsed.problem, `line ${k + 1}`);
      out.push({ line: k + 1, value: parsed.value });
    });
  return out;
}

/** Bytes read into `chunk` at the file's position, or stop with one line naming the file (EIO). */
function readChunk(file: string, fd: number, chunk: Buffer): number {
  try {
    return fs.readSync(fd, chunk, 0, chunk.length, null);
  } catch (e) {
    throw new InputError(file, `cannot read file (${(e as NodeJS.ErrnoException).code ?? 'unreadable'})`);
  }
}

/**
 * Each line of a file, read in chunks as it is asked for: the file may be larger than any string.
 * The file is closed when the lines run out or the loop over them stops. Bounded whatever the file
 * is: a line longer than MAX_TEXT_BYTES (no string holds it; a sparse file of NULs is one such
 * line) stops with its number, and a file that reads on past its measured size and MAX_TEXT_BYTES
 * more (a `/proc` file says 0 and reads on for ever) stops too. Only the new chunk is searched for
 * newlines: the line it continues is kept as its bytes, decoded once it ends, so that a character
 * cut by a chunk's end is whole again and bad bytes are one bad character each, as before.
 */
export function* linesOf(file: string): Generator<string, void, undefined> {
  const fd = openRegular(file);
  const bound = fs.fstatSync(fd).size + MAX_TEXT_BYTES;
  const chunk = Buffer.alloc(1 << 20);
  /** The bytes of the line under way that earlier chunks held, copied: `chunk` is read into again. */
  let pieces: Buffer[] = [];
  let held = 0;
  let line = 1;
  const tooLong = () =>
    new InputError(
      file,
      `longer than ${MAX_TEXT_BYTES} bytes, more than one string can hold`,
      `line ${line}`,
    );
  try {
    for (let n = readChunk(file, fd, chunk), read = n; n > 0; n = readChunk(file, fd, chunk), read += n) {
      if (read > bound)
        throw new InputError(
          file,
          `reads on past its size and ${MAX_TEXT_BYTES} bytes more: no file at rest`,
        );
      const got = chunk.subarray(0, n);
      let start = 0;
      for (let end = got.indexOf(0x0a); end >= 0; end = got.indexOf(0x0a, start)) {
        if (held + end - start > MAX_TEXT_BYTES) throw tooLong();
        const bytes = got.subarray(start, end);
        const text = (held === 0 ? bytes : Buffer.concat([...pieces, bytes])).toString('utf8');
        pieces = [];
        held = 0;
        start = end + 1;
        line++;
        yield text;
      }
      if (start < n) {
        held += n - start;
        if (held > MAX_TEXT_BYTES) throw tooLong();
        pieces.push(Buffer.from(got.subarray(start)));
      }
    }
    const last = Buffer.concat(pieces).toString('utf8');
    if (last !== '') yield last;
  } finally {
    fs.closeSync(fd);
  }
}

/** Each line of a file, read in chunks: the file may be larger than any string. */
export function forEachLine(file: string, fn: (line: string) => void): void {
  for (const line of linesOf(file)) fn(line);
}
