/**
 * The server's stdio transport: the SDK's `Transport`, one JSON-RPC message a line as the MCP
 * stdio transport has it, with a limit on a message's bytes. The SDK's own stdio transport holds a
 * line whole until its newline and closes past 10 MiB, so one long message ended the server; here a
 * line past the limit is dropped as it streams in (only its id and method are kept, head.ts), and
 * answered with an error, and the next line is read as usual. A line that is not JSON, or not a
 * JSON-RPC message, is answered as JSON-RPC 2.0 asks rather than skipped in silence.
 */
import type { Readable, Writable } from 'node:stream';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ErrorCode, type JSONRPCMessage, JSONRPCMessageSchema } from '@modelcontextprotocol/sdk/types.js';
import { count } from '../harness/format.js';
import { type Head, HeadReader } from './head.js';

/**
 * A message's bytes at most, by default: room for a pool of tens of thousands of candidates
 * passed as arguments, and a bound on what one message can make the server hold.
 */
export const DEFAULT_MAX_MESSAGE = 64 * 1024 * 1024;

const bytes = (n: number): string => count(n, 'byte');

/** What to do about a line: nothing, a message to send, or words for stderr. */
type Reply = JSONRPCMessage | string | undefined;

/** What the server holds of the line it reads: its pieces, or, once past the limit, its head. */
type Reading = { pieces: Buffer[]; held: number } | { over: HeadReader; seen: number };

export class LineTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: Transport['onmessage'];
  /** Settles when the transport closes: the client closed its end, or the server was closed. */
  readonly closed: Promise<void>;
  private readonly input: Readable;
  private readonly output: Writable;
  private readonly max: number;
  private reading: Reading = { pieces: [], held: 0 };
  private done = false;
  private settle: () => void = () => {};

  constructor(input: Readable, output: Writable, max = DEFAULT_MAX_MESSAGE) {
    this.input = input;
    this.output = output;
    this.max = max;
    this.closed = new Promise((resolve) => {
      this.settle = resolve;
    });
  }

  private readonly onData = (chunk: Buffer): void => {
    for (let start = 0; start < chunk.length; ) {
      const newline = chunk.indexOf(0x0a, start);
      this.take(chunk.subarray(start, newline < 0 ? chunk.length : newline));
      if (newline < 0) return;
      this.lineEnded();
      start = newline + 1;
    }
  };
  private readonly onEnd = (): void => {
    void this.close();
  };
  private readonly onError = (e: Error): void => {
    this.onerror?.(e);
    void this.close();
  };

  async start(): Promise<void> {
    this.input.on('data', this.onData);
    this.input.on('end', this.onEnd);
    this.input.on('close', this.onEnd);
    this.input.on('error', this.onError);
  }

  /** A piece of the line being read: kept while the line is within the limit, else only read through. */
  private take(piece: Buffer): void {
    const r = this.reading;
    if ('over' in r) {
      r.over.feed(piece);
      r.seen += piece.length;
    } else if (r.held + piece.length <= this.max) {
      r.pieces.push(piece);
      r.held += piece.length;
    } else {
      const over = new HeadReader();
      for (const p of r.pieces) over.feed(p);
      over.feed(piece);
      this.reading = { over, seen: r.held + piece.length };
    }
  }

  /** A line has ended: read, or answered, or told on stderr (through onerror). */
  private lineEnded(): void {
    const r = this.reading;
    this.reading = { pieces: [], held: 0 };
    const reply = 'over' in r ? this.tooLong(r.over.head(), r.seen) : this.read(r.pieces, r.held);
    if (typeof reply === 'string') this.onerror?.(new Error(reply));
    else if (reply !== undefined) void this.send(reply);
  }

  /** A line within the limit: a message handed to the server, or what to answer instead. */
  private read(pieces: Buffer[], held: number): Reply {
    const line = Buffer.concat(pieces, held).toString('utf8').replace(/\r$/, '');
    if (line.trim() === '') return undefined;
    let json: unknown;
    try {
      json = JSON.parse(line);
    } catch {
      return refusal(undefined, ErrorCode.ParseError, 'Parse error: the line is not JSON');
    }
    const message = JSONRPCMessageSchema.safeParse(json);
    if (message.success) return this.hand(message.data, held);
    const { id, method } = (typeof json === 'object' && json !== null ? json : {}) as Record<string, unknown>;
    // A response of the client's that cannot be read is not answered: responses never are.
    if (method === undefined && id !== undefined) return 'a response that is not JSON-RPC 2.0, dropped';
    return refusal(idOf(id), ErrorCode.InvalidRequest, 'Invalid Request: not a JSON-RPC 2.0 message');
  }

  /**
   * A message handed to the server. What its handling throws at once (the SDK writes a response
   * to no request into its log with JSON.stringify, which a response nested thousands deep
   * overflows) ends that message alone: a request is answered with an error, anything else told.
   */
  private hand(message: JSONRPCMessage, held: number): Reply {
    try {
      // Its size, in the header an HTTP transport would give: what the calls waiting may hold is bounded.
      this.onmessage?.(message, { requestInfo: { headers: { 'content-length': String(held) } } });
      return undefined;
    } catch (e) {
      const why = e instanceof Error ? e.message : String(e);
      if ('method' in message && 'id' in message)
        return refusal(message.id, ErrorCode.InternalError, `Internal error: ${why}`);
      return `dropped a message the server could not take: ${why}`;
    }
  }

  /** A line past the limit: a request is answered by its id, anything else is told on stderr. */
  private tooLong(head: Head, seen: number): Reply {
    const what = `a message of ${bytes(seen)}, over this server's limit of ${bytes(this.max)} (--max-message)`;
    if (head.method === 'tools/call' && head.id !== undefined) {
      // A tool's input it cannot take: the model can act on it, so it is the call's result.
      const text = `ctxbench: ${what}: pass fewer or smaller records, or start the server with a larger --max-message`;
      return { jsonrpc: '2.0', id: head.id, result: { isError: true, content: [{ type: 'text', text }] } };
    }
    if (head.method !== undefined && head.id !== undefined)
      return refusal(head.id, ErrorCode.InvalidRequest, `Invalid Request: ${what}`);
    if (head.hasMethod && !head.hasId) return `dropped ${what}: a notification`;
    if (!head.hasMethod && head.hasId) return `dropped ${what}: a response`;
    return refusal(
      undefined,
      ErrorCode.InvalidRequest,
      `Invalid Request: ${what}, and no id could be read from it`,
    );
  }

  send(message: JSONRPCMessage): Promise<void> {
    if (this.done) return Promise.resolve();
    return new Promise((resolve) => {
      if (this.output.write(`${JSON.stringify(message)}\n`)) resolve();
      else this.output.once('drain', resolve);
    });
  }

  async close(): Promise<void> {
    if (this.done) return;
    this.done = true;
    this.input.off('data', this.onData);
    this.input.off('end', this.onEnd);
    this.input.off('close', this.onEnd);
    this.input.off('error', this.onError);
    this.input.pause();
    this.reading = { pieces: [], held: 0 };
    this.onclose?.();
    this.settle();
  }
}

/** A JSON-RPC error; without an id when none can be read, as MCP's schema has it. */
const refusal = (id: string | number | undefined, code: number, message: string): JSONRPCMessage =>
  ({ jsonrpc: '2.0', ...(id === undefined ? {} : { id }), error: { code, message } }) as JSONRPCMessage;

/** A JSON-RPC id, as MCP allows it: a string or a whole number. */
const idOf = (id: unknown): string | number | undefined =>
  typeof id === 'string' || (typeof id === 'number' && Number.isSafeInteger(id)) ? id : undefined;
