/**
 * What the MCP server reads of a message too long to keep (HeadReader): the top-level id and
 * method that JSON.parse would give, whatever the message holds and however its bytes are cut into
 * pieces, while nothing nested, no string's content and nothing long is taken for them.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { HeadReader } from '../../src/mcp/head.js';

const SEED = 20_261_233;

/** Text that trips a reader that does not follow strings: quotes, backslashes, braces, the names themselves. */
const PIECES = [
  'a',
  '"',
  '\\',
  '\\"',
  '{',
  '}',
  '[',
  ']',
  ':',
  ',',
  '"id":1',
  '"method":"x"',
  '\n',
  'é',
  '😀',
  '\u2028',
];
const text = fc.oneof(
  fc.string(),
  fc.array(fc.constantFrom(...PIECES), { maxLength: 10 }).map((p) => p.join('')),
);
const value: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    text,
    fc.integer(),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 3 }),
    fc.dictionary(fc.oneof(text, fc.constantFrom('id', 'method')), tie('value'), { maxKeys: 3 }),
  ),
})).value;
/** An id as a client may send one, or something that is not one. */
const id = fc.oneof(fc.integer(), text, value);
const message = fc.record(
  { id, method: fc.oneof(text, value), jsonrpc: fc.constant('2.0'), params: value },
  { requiredKeys: [] },
);

/** The message's text cut into pieces at the given places. */
const cut = (bytes: Buffer, at: readonly number[]): Buffer[] => {
  const places = [...new Set(at.map((k) => k % (bytes.length + 1)))].sort((a, b) => a - b);
  return [0, ...places].map((from, k) => bytes.subarray(from, places[k] ?? bytes.length));
};

/** A string the reader keeps: its JSON within 1,024 bytes. */
const short = (x: unknown): x is string =>
  typeof x === 'string' && Buffer.byteLength(JSON.stringify(x)) <= 1024;
const usableId = (x: unknown) => short(x) || (typeof x === 'number' && Number.isSafeInteger(x));

describe(`HeadReader (fast-check seed ${SEED})`, () => {
  it("gives JSON.parse's top-level id and method, however the bytes are cut", () => {
    fc.assert(
      fc.property(message, fc.array(fc.nat(), { maxLength: 6 }), fc.boolean(), (m, at, spaced) => {
        const json = JSON.stringify(m, null, spaced ? 2 : undefined);
        const reader = new HeadReader();
        for (const piece of cut(Buffer.from(json), at)) reader.feed(piece);
        const parsed = JSON.parse(json) as Record<string, unknown>;
        const head = reader.head();
        expect(head.object).toBe(true);
        expect(head.hasId).toBe('id' in parsed);
        expect(head.hasMethod).toBe('method' in parsed);
        expect(head.id).toEqual(usableId(parsed.id) ? parsed.id : undefined);
        expect(head.method).toEqual(short(parsed.method) ? parsed.method : undefined);
      }),
      { seed: SEED, numRuns: 1000 },
    );
  });

  it('keeps what came before a cut, and reads anything but an object as no message', () => {
    const read = (...pieces: string[]) => {
      const r = new HeadReader();
      for (const p of pieces) r.feed(Buffer.from(p));
      return r.head();
    };
    expect(read('{"id":7,"method":"tools/call","params":{"a":"xx')).toMatchObject({
      id: 7,
      method: 'tools/call',
    });
    expect(read('  {"method":"m","id":"a', 'b"')).toMatchObject({ id: 'ab', method: 'm' });
    expect(read('[{"id":1,"method":"m"}]')).toEqual({
      object: false,
      hasId: false,
      id: undefined,
      hasMethod: false,
      method: undefined,
    });
    expect(read('"{\\"id\\":1}"').object).toBe(false);
    // An id of more than 1,024 bytes is no id: the reader keeps no more than that.
    expect(read(`{"id":"${'x'.repeat(2000)}","method":"m"}`)).toMatchObject({ hasId: true, id: undefined });
  });
});
