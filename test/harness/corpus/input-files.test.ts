/**
 * The guarded readers of input files (issue 47) on files that are no text at rest: a sparse file
 * whose one line is longer than any string (gigabytes of NULs that take no disk), a `/proc` file
 * that says it is empty and reads on, a FIFO nobody writes, a link to /dev/zero. Each stops with
 * one InputError naming the file (and the line), having read a bounded amount.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { linesOf, MAX_TEXT_BYTES, readBytes } from '../../../src/harness/corpus/index.js';
import { InputError } from '../../../src/harness/errors.js';
import { fifo } from '../../helpers/hostile-folders.js';
import { tempDir } from '../../helpers/temp.js';

const tmp = tempDir('input-files');

/** The lines `linesOf` gave before it stopped, and the error it stopped with (null: it ended). */
function linesUntilStopped(file: string): { lines: string[]; error: InputError | null } {
  const lines: string[] = [];
  try {
    for (const line of linesOf(file)) lines.push(line);
  } catch (e) {
    if (!(e instanceof InputError)) throw e;
    return { lines, error: e };
  }
  return { lines, error: null };
}

/** A file of `text` then NULs to `size` bytes: a hole, no disk used. */
function sparse(name: string, text: string, size: number): string {
  const file = path.join(tmp, name);
  fs.writeFileSync(file, text);
  fs.truncateSync(file, size);
  return file;
}

describe('linesOf', () => {
  it('a line longer than one string can hold stops with its number, after the lines before it', () => {
    // 4 GiB of NULs after one short line: the old reader held the line as a growing string.
    const file = sparse('huge-line.jsonl', '{"a":1}\n', 2 ** 32);
    const { lines, error } = linesUntilStopped(file);
    expect(lines).toEqual(['{"a":1}']);
    expect(error?.file).toBe(file);
    expect(error?.record).toBe('line 2');
    expect(error?.message).toBe(`longer than ${MAX_TEXT_BYTES} bytes, more than one string can hold`);
  }, 60_000);

  it.runIf(fs.existsSync('/proc/self/pagemap'))(
    'a /proc file that says it is empty and reads on stops past MAX_TEXT_BYTES',
    () => {
      const { error } = linesUntilStopped('/proc/self/pagemap');
      expect(error?.file).toBe('/proc/self/pagemap');
      expect(error?.message).toMatch(/^reads on past its size and \d+ bytes more/);
    },
    60_000,
  );

  it.each([
    ['a FIFO', (f: string) => fifo(f), 'a FIFO'],
    ['a link to /dev/zero', (f: string) => fs.symlinkSync('/dev/zero', f), 'a device'],
  ])('%s is refused at once, never waited on or read', (name, make, said) => {
    const file = path.join(tmp, `${name.replace(/\W+/g, '-')}.jsonl`);
    make(file);
    const { error } = linesUntilStopped(file);
    expect(error?.message).toBe(`cannot read file: it is ${said}, not a regular file`);
  });

  it('a character cut by the end of a chunk is whole, a bad byte one replacement character', () => {
    const file = path.join(tmp, 'straddle.txt');
    // The chunk is 1 MiB: the euro sign's three bytes start one byte before its end.
    const first = `${'x'.repeat((1 << 20) - 1)}€`;
    fs.writeFileSync(
      file,
      Buffer.concat([Buffer.from(`${first}\nb`), Buffer.from([0xff]), Buffer.from('c')]),
    );
    expect([...linesOf(file)]).toEqual([first, 'b\uFFFDc']);
  });
});

describe('readBytes', () => {
  it('reads no further than its bound, whatever the file says of its size', () => {
    const file = path.join(tmp, 'forty.txt');
    fs.writeFileSync(file, 'x'.repeat(40));
    expect(readBytes(file, 40).length).toBe(40);
    expect(() => readBytes(file, 32)).toThrow('too large: 40 bytes, over the 32 it may hold');
  });

  it.runIf(fs.existsSync('/proc/self/environ'))(
    'a /proc file of size 0 is read to its end, within the bound',
    () => {
      // Its environment, which says 0 bytes: the read goes past the size it measured, to the end.
      expect(readBytes('/proc/self/environ').toString('latin1')).toContain('\0');
      expect(() => readBytes('/proc/self/environ', 4)).toThrow(
        /^too large: \d+ bytes, over the 4 it may hold$/,
      );
    },
  );
});
