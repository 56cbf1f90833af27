/**
 * The channel between the parent and a strategy's process: a pipe of our own (fd 3 in the
 * child), carrying frames of a 4-byte length and a V8-serialized value. Not Node's IPC channel:
 * that one deserializes inside its own read callback, where a malformed message written to the
 * fd by a strategy throws past any try/catch and takes the parent down. Here every frame is
 * read by `FrameReader`, whose errors the reader catches and charges to that strategy alone.
 */
import v8 from 'node:v8';
import { SELECTION_CAP } from './answer-rules.js';

/** The child's end of the channel. */
export const CHANNEL_FD = 3;

const HEADER = 4;

/**
 * The largest frame a strategy's process may send: an answer holds a selection of up to
 * SELECTION_CAP characters, two bytes each at worst in V8's format, and a little framing.
 */
export const MAX_FRAME = 2 * SELECTION_CAP + 1024 * 1024;

/** A frame that cannot be read: the process that sent it is stopped. */
export class BadFrame extends Error {}

/** One value as a frame. Throws (RangeError) when it does not fit in 4 GiB. */
export function frame(value: unknown): Buffer {
  const body = v8.serialize(value);
  const head = Buffer.alloc(HEADER);
  head.writeUInt32BE(body.length);
  return Buffer.concat([head, body]);
}

/** Frames out of a stream of chunks; `limit` bounds what a frame may claim before it is read. */
export class FrameReader {
  private chunks: Buffer[] = [];
  private held = 0;
  private readonly limit: number;

  constructor(limit = Number.POSITIVE_INFINITY) {
    this.limit = limit;
  }

  /** The values completed by `chunk`, in order. Throws BadFrame; nothing can be read after it. */
  push(chunk: Buffer): unknown[] {
    this.chunks.push(chunk);
    this.held += chunk.length;
    const values: unknown[] = [];
    for (;;) {
      if (this.held < HEADER) return values;
      // The header may span chunks; the body is joined only once it is whole, so a large frame
      // arriving in many reads is copied once, not once per read.
      const first = this.chunks[0] as Buffer;
      const size = (first.length >= HEADER ? first : Buffer.concat(this.chunks)).readUInt32BE(0);
      // Refused on its header: a frame over the limit is never waited for or held.
      if (size > this.limit)
        throw new BadFrame(`a message of ${size} bytes, over the limit of ${this.limit}`);
      if (this.held < HEADER + size) return values;
      const all = this.chunks.length === 1 ? first : Buffer.concat(this.chunks);
      try {
        values.push(v8.deserialize(all.subarray(HEADER, HEADER + size)));
      } catch (e) {
        throw new BadFrame(`a message that cannot be read (${e instanceof Error ? e.message : String(e)})`);
      }
      const rest = all.subarray(HEADER + size);
      this.chunks = rest.length > 0 ? [rest] : [];
      this.held = rest.length;
    }
  }
}
