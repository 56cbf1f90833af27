/** Reading input files, and finding the package's own files (the reference corpus, its ledger). */
import fs from 'node:fs';
import { StringDecoder } from 'node:string_decoder';
import { InputError } from '../errors.js';
import { decodeText, parseJson } from './json-text.js';

/**
 * The largest input file: a JavaScript string holds at most 2^29 - 24 UTF-16 units, so a JSON
 * file beyond that cannot be parsed at all (docs/reliability.md, "Limits").
 */
export const MAX_TEXT_BYTES = 2 ** 29 - 24;

/** What a file that is not a regular one is, for the line that refuses it. */
function kindOf(s: fs.Stats): string {
  if (s.isDirectory()) return 'a folder';
  if (s.isFIFO()) return 'a FIFO';
  if (s.isSocket()) return 'a socket';
  return s.isCharacterDevice() || s.isBlockDevice() ? 'a device' : 'not a regular file';
}

/**
 * `file` opened for reading, a regular file, or stop with one line naming it. Opened without
 * waiting (a FIFO nobody writes would hold the command for ever) and checked on the open file: an
 * input folder is anybody's (a run folder, a corpus), and a FIFO, a socket or a device (a link to
 * `/dev/zero`) in it is no input. A link is followed to what it leads to, as before.
 */
function openRegular(file: string): number {
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
  throw new InputError(file, `cannot read file: it is ${kindOf(s)}, not a regular file`);
}

/** Bytes read into `buf` until it is full or the file ends; how many. */
function fill(fd: number, buf: Buffer): number {
  let got = 0;
  for (let n = 1; n > 0 && got < buf.length; got += n) n = fs.readSync(fd, buf, got, buf.length - got, null);
  return got;
}

/** A file's bytes, or stop with one line naming it (unreadable, not a file, too large for one string). */
function readBytes(file: string): Buffer {
  const fd = openRegular(file);
  const size = fs.fstatSync(fd).size;
  const tooLarge = (n: number) =>
    new InputError(file, `too large: ${n} bytes, over the ${MAX_TEXT_BYTES} one JSON text can hold`);
  try {
    if (size > MAX_TEXT_BYTES) throw tooLarge(size);
    // Its measured size and one byte more; a file that grew meanwhile reads on, to the bound.
    const parts = [Buffer.allocUnsafe(size + 1)];
    let got = fill(fd, parts[0] as Buffer);
    if (got <= size) return (parts[0] as Buffer).subarray(0, got);
    for (let n = got; n > 0 && got <= MAX_TEXT_BYTES; got += n) {
      const chunk = Buffer.allocUnsafe(Math.min(1 << 20, MAX_TEXT_BYTES + 1 - got));
      n = fill(fd, chunk);
      parts.push(chunk.subarray(0, n));
    }
    if (got > MAX_TEXT_BYTES) throw tooLarge(got);
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

/**
 * Each line of a file, read in chunks as it is asked for: the file may be larger than any string.
 * The file is closed when the lines run out or the loop over them stops.
 */
export function* linesOf(file: string): Generator<string, void, undefined> {
  const fd = openRegular(file);
  const chunk = Buffer.alloc(1 << 20);
  // A character may straddle two chunks: the decoder holds its first bytes back until the rest come.
  const decoder = new StringDecoder('utf8');
  let rest = '';
  try {
    for (let n = fs.readSync(fd, chunk); n > 0; n = fs.readSync(fd, chunk)) {
      const lines = (rest + decoder.write(chunk.subarray(0, n))).split('\n');
      rest = lines.pop() as string;
      yield* lines;
    }
    rest += decoder.end();
    if (rest !== '') yield rest;
  } finally {
    fs.closeSync(fd);
  }
}

/** Each line of a file, read in chunks: the file may be larger than any string. */
export function forEachLine(file: string, fn: (line: string) => void): void {
  for (const line of linesOf(file)) fn(line);
}
