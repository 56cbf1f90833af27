/**
 * What a strategy's process prints on its stdout and stderr, passed on to ctxbench's stderr for
 * its author's eyes (never into ctxbench's output). It is the strategy's text, so it is made
 * inert and bounded: control characters other than the line break and the tab are escaped, so
 * no escape sequence reaches a terminal, and at most PRINTED_CAP bytes of one strategy are shown
 * per command. The bound matters beyond the screen: Node writes to a pipe, a file or a terminal
 * synchronously on Linux, so a slow reader of ctxbench's stderr holds ctxbench's thread, and with
 * it the clock's verdict, for as long as the bytes take to be read (docs/reliability.md, Limits).
 */
import type { ChildProcess } from 'node:child_process';
import { StringDecoder } from 'node:string_decoder';

/** The most bytes of what one strategy prints that one command shows (its processes together). */
export const PRINTED_CAP = 256 * 1024;
/** How much of the end of a process's stderr is kept, for why it stopped (hosts.ts). */
const TAIL = 4096;

/**
 * A control character other than the line break and the tab (C0, DEL, C1: escape sequences, a
 * carriage return that overwrites a line, a bell), or a bidirectional control, which reorders
 * what the terminal shows.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it escapes.
const ACTIVE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

const hex = (c: string, width: number) => (c.codePointAt(0) ?? 0).toString(16).padStart(width, '0');

/** `text` with each active character written as its escape: `\x1b`, `\u202e`. */
export const inert = (text: string): string =>
  text.replace(ACTIVE, (c) => (c <= '\u00ff' ? `\\x${hex(c, 2)}` : `\\u${hex(c, 4)}`));

/** What one strategy prints in one command, across its processes: one budget of PRINTED_CAP bytes. */
export class Printed {
  private shown = 0;
  private lastShown = '\n';
  private readonly name: string;
  private readonly write: (text: string) => void;

  constructor(
    name: string,
    write: (text: string) => void = (text) => {
      process.stderr.write(text);
    },
  ) {
    this.name = name;
    this.write = write;
  }

  /**
   * Relay what `child` prints; call `end` once it has closed (all it printed read): one line then
   * says how many bytes of this process were dropped, if any were. Each stream decodes on its
   * own, as a character may be split between two chunks. `tail` is the end of its stderr as it
   * came, shown or not, where V8 says that the heap ran out.
   */
  relay(child: Pick<ChildProcess, 'stdout' | 'stderr'>): { end: () => void; tail: () => string } {
    let dropped = 0;
    let tail = '';
    for (const stream of [child.stdout, child.stderr]) {
      const decoder = new StringDecoder('utf8');
      stream?.on('data', (chunk: Buffer) => {
        if (stream === child.stderr) tail = (tail + chunk.subarray(-TAIL).toString()).slice(-TAIL);
        if (this.shown >= PRINTED_CAP) dropped += chunk.length;
        else dropped += this.show(decoder.write(chunk));
      });
    }
    const end = () => {
      if (dropped === 0) return;
      this.write(
        `ctxbench: ${this.name} printed ${dropped.toLocaleString('en-US')} more bytes, not shown (at most ${PRINTED_CAP.toLocaleString('en-US')} bytes of what a strategy prints are)\n`,
      );
      dropped = 0;
    };
    return { end, tail: () => tail };
  }

  /** Show what fits of `text`, in whole characters; return how many of its bytes did not fit. */
  private show(text: string): number {
    const shown = inert(text);
    const size = Buffer.byteLength(shown);
    if (this.shown + size < PRINTED_CAP) {
      this.emit(shown, size);
      return 0;
    }
    let at = 0;
    let fits = 0;
    for (const c of text) {
      const more = Buffer.byteLength(inert(c));
      if (this.shown + fits + more > PRINTED_CAP) break;
      fits += more;
      at += c.length;
    }
    this.emit(inert(text.slice(0, at)), fits);
    // Nothing more is shown, even a character that would still fit: the cut is one place, and
    // ends its line, so that what ctxbench says next starts a line of its own.
    if (this.lastShown !== '\n') this.write('\n');
    this.shown = PRINTED_CAP;
    return Buffer.byteLength(text.slice(at));
  }

  private emit(text: string, size: number): void {
    this.shown += size;
    if (text === '') return;
    this.lastShown = text.slice(-1);
    this.write(text);
  }
}
