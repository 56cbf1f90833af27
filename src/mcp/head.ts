/**
 * What a message too long to keep says of itself: its top-level `id` and `method`, read from its
 * bytes as they stream past, in constant memory. The server drops such a message unread
 * (transport.ts) and needs only these two to answer it as JSON-RPC 2.0 asks: a request by its id,
 * a notification not at all, and a message whose id cannot be read with an error without one.
 */

/** The longest member name or value kept: an id or a method is short, anything longer is neither. */
const KEPT = 1024;

/** A member read but unusable: an object, a list, a value too long or not JSON. */
const UNUSABLE = Symbol('unusable');

export interface Head {
  /** Whether the message opens as a JSON object at all. */
  readonly object: boolean;
  /** Whether it has a top-level `id`, and that id when it is one (a string or a whole number). */
  readonly hasId: boolean;
  readonly id: string | number | undefined;
  /** Whether it has a top-level `method`, and that method when it is a string. */
  readonly hasMethod: boolean;
  readonly method: string | undefined;
}

const isSpace = (c: number): boolean => c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;

const parsed = (bytes: readonly number[]): unknown => {
  try {
    return JSON.parse(Buffer.from(bytes).toString('utf8'));
  } catch {
    return UNUSABLE;
  }
};

/**
 * Fed a message's bytes in pieces, it follows strings and nesting and keeps only the top level's
 * names and short values: never more than KEPT bytes, whatever the message's length.
 */
export class HeadReader {
  private state: 'start' | 'object' | 'other' | 'done' = 'start';
  private depth = 0;
  private inString = false;
  private escaped = false;
  /** The top-level token being read: a member's name or a value that is not an object or a list. */
  private token: number[] = [];
  private long = false;
  private name: unknown;
  private readonly members = new Map<string, unknown>();

  feed(bytes: Buffer): void {
    if (this.state === 'other' || this.state === 'done') return;
    // Where the next quote and backslash lie: inside a nested string, nothing else matters.
    let quote = -2;
    let slash = -2;
    for (let i = 0; i < bytes.length; i++) {
      if (this.inString && !this.escaped && this.depth > 1) {
        if (quote !== -1 && quote < i) quote = bytes.indexOf(0x22, i);
        if (slash !== -1 && slash < i) slash = bytes.indexOf(0x5c, i);
        const next = quote === -1 ? slash : slash === -1 ? quote : Math.min(quote, slash);
        if (next === -1) return;
        i = next;
      }
      const c = bytes[i] as number;
      if (this.state === 'start') {
        if (isSpace(c)) continue;
        if (c !== 0x7b) {
          this.state = 'other';
          return;
        }
        this.state = 'object';
        this.depth = 1;
      } else if (this.inString) {
        if (this.depth === 1) this.keep(c);
        if (this.escaped) this.escaped = false;
        else if (c === 0x5c) this.escaped = true;
        else if (c === 0x22) this.inString = false;
      } else if (c === 0x22) {
        this.inString = true;
        if (this.depth === 1) this.keep(c);
      } else if (c === 0x7b || c === 0x5b) {
        // A nested value leaves its member's token empty, which reads as no usable value.
        this.depth++;
      } else if (c === 0x7d || c === 0x5d) {
        this.depth--;
        if (this.depth === 0) {
          this.member();
          this.state = 'done';
          return;
        }
      } else if (this.depth === 1 && c === 0x3a) {
        this.name = this.long ? UNUSABLE : parsed(this.token);
        this.token = [];
        this.long = false;
      } else if (this.depth === 1 && c === 0x2c) this.member();
      else if (this.depth === 1 && !isSpace(c)) this.keep(c);
    }
  }

  private keep(c: number): void {
    if (this.token.length < KEPT) this.token.push(c);
    else this.long = true;
  }

  /** A top-level member has ended: kept if it is the id or the method. */
  private member(): void {
    if (this.name === 'id' || this.name === 'method')
      this.members.set(this.name, this.long ? UNUSABLE : parsed(this.token));
    this.name = undefined;
    this.token = [];
    this.long = false;
  }

  /** What was read. A message cut short still tells what it had: the id sent before the cut. */
  head(): Head {
    if (this.state === 'object' && this.depth === 1 && !this.inString) this.member();
    const id = this.members.get('id');
    const method = this.members.get('method');
    return {
      object: this.state === 'object' || this.state === 'done',
      hasId: this.members.has('id'),
      id: typeof id === 'string' || (typeof id === 'number' && Number.isSafeInteger(id)) ? id : undefined,
      hasMethod: this.members.has('method'),
      method: typeof method === 'string' ? method : undefined,
    };
  }
}
