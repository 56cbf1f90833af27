/** Reading input files, and finding the package's own files (the reference corpus, its ledger). */
import fs from 'node:fs';
import { StringDecoder } from 'node:string_decoder';
import { InputError } from '../errors.js';
import { decodeText, parseJson } from './json.js';

/**
 * The largest input file: a JavaScript string holds at most 2^29 - 24 UTF-16 units, so a JSON
 * file beyond that cannot be parsed at all (docs/reliability.md, "Limits").
 */
export const MAX_TEXT_BYTES = 2 ** 29 - 24;

/** A file's bytes, or stop with one line naming it (unreadable, too large for one string). */
function readBytes(file: string): Buffer {
  let bytes: Buffer;
  try {
    bytes = fs.readFileSync(file);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code ?? 'unreadable';
    throw new InputError(file, `cannot read file (${code})`);
  }
  if (bytes.length > MAX_TEXT_BYTES)
    throw new InputError(
      file,
      `too large: ${bytes.length} bytes, over the ${MAX_TEXT_BYTES} one JSON text can hold`,
    );
  return bytes;
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
  const fd = fs.openSync(file, 'r');
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
