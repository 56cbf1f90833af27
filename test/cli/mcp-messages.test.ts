/**
 * `ctxbench mcp` against messages a client should not send: longer than the server's limit
 * (--max-message), not JSON, not JSON-RPC. Each is answered as JSON-RPC 2.0 and MCP ask (a tool
 * call past the limit with an error result, another request with an error by its id, a message
 * whose id cannot be read with an error without one, a notification not at all), and the server
 * answers the next call as usual. A message past the limit is read through, never held whole.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nested, nestedObject } from '../helpers/break-it.js';
import { figureRow, n } from '../helpers/figures.js';
import { memoryMb, RawServer, resultTexts } from '../helpers/mcp.js';

/** The limit the first server is started with: small, so that long messages cost the test little. */
const LIMIT = 1_000_000;
/** What the 2.x server of issue 33 did with 10 MB (fell silent) and 20 MB (ended, exit 13). */
const MB = 1_000_000;
const OVER = [LIMIT + 1, 10 * MB, 20 * MB, 300 * MB];
const DEFAULT_LIMIT = 64 * 1024 * 1024;

const CALL_HEAD =
  '{"jsonrpc":"2.0","method":"tools/call","params":{"name":"check","arguments":{"candidates":[],"pad":"';
const callTail = (id: string) => `"}},"id":"${id}"}`;
/** The padding that makes a check call of `id` exactly `bytes` long. */
const padFor = (bytes: number, id: string) => bytes - CALL_HEAD.length - callTail(id).length;

const EMPTY_CHECK = ['[]\n', 'check: 0 problems, 0 warnings'];
const overLimit = (bytes: number, limit: number) =>
  `a message of ${n(bytes)} bytes, over this server's limit of ${n(limit)} bytes (--max-message)`;

/** What was sent, for the figures. */
const told: string[] = [];
let raw: RawServer;
beforeAll(async () => {
  raw = new RawServer(['--max-message', String(LIMIT)]);
  await raw.initialize();
});
afterAll(async () => {
  raw.child.stdin?.end();
  expect((await raw.exited).code).toBe(0);
});

/** A valid call after each bad message: answered, and as it would be on a fresh server. */
async function answersNext(after: string): Promise<void> {
  const r = await raw.call(`after-${after}`, 'check', { candidates: [] });
  expect(r.result, after).toBeDefined();
  expect(resultTexts(r), after).toEqual(EMPTY_CHECK);
}

describe('a message over --max-message', () => {
  it('a tool call is an error result naming its size and the limit; the next call is answered', async () => {
    for (const bytes of OVER) {
      const id = `over-${bytes}`;
      const before = memoryMb(raw.server(), 'VmHWM');
      await raw.sendLong(CALL_HEAD, padFor(bytes, id), callTail(id));
      const r = await raw.replyTo(id);
      expect((r.result as { isError?: boolean }).isError, id).toBe(true);
      expect(resultTexts(r), id).toEqual([
        `ctxbench: ${overLimit(bytes, LIMIT)}: pass fewer or smaller records, or start the server with a larger --max-message`,
      ]);
      // Read through, not held: the largest would need 300 MB here if it were kept whole.
      if (bytes === 300 * MB) {
        const grew = memoryMb(raw.server(), 'VmHWM') - before;
        console.log(`mcp messages: peak memory grew ${grew.toFixed(1)} MB reading ${n(bytes)} bytes`);
        expect(grew).toBeLessThan(100);
      }
      await answersNext(id);
    }
    told.push(
      `${OVER.length} tool calls of ${n(LIMIT + 1)} to ${n(300 * MB)} bytes under --max-message ${n(LIMIT)}`,
    );
  });

  it('any other request, its id after a long body or before a cut, is an error by its id', async () => {
    const body = 'x'.repeat(2 * LIMIT);
    const lines: [id: string, line: string, code: number][] = [
      [
        'list',
        JSON.stringify({ jsonrpc: '2.0', method: 'tools/list', params: { body }, id: 'list' }),
        -32600,
      ],
      [
        'read',
        JSON.stringify({ id: 'read', jsonrpc: '2.0', method: 'resources/read', params: { uri: body } }),
        -32600,
      ],
    ];
    for (const [id, line, code] of lines) {
      await raw.write(`${line}\n`);
      const r = await raw.replyTo(id);
      expect(r.error, id).toEqual({ code, message: `Invalid Request: ${overLimit(line.length, LIMIT)}` });
      await answersNext(id);
    }
    // Cut before its end: what was sent before the cut still names the call.
    const cut = `{"id":"cut","jsonrpc":"2.0","method":"tools/call","params":{"name":"check","arguments":{"pad":"${body}`;
    await raw.write(`${cut}\n`);
    expect(resultTexts(await raw.replyTo('cut'))[0]).toContain(overLimit(cut.length, LIMIT));
    await answersNext('cut');
    told.push(`${lines.length + 1} other requests past it (one cut before its end)`);
  });

  it('a message whose id cannot be read is an error without an id; a notification is not answered', async () => {
    const body = 'x'.repeat(2 * LIMIT);
    const unread = [
      JSON.stringify(body),
      JSON.stringify({ jsonrpc: '2.0', id: { not: 'an id' }, method: 'tools/call', params: { body } }),
      JSON.stringify({ jsonrpc: '2.0', id: `a${body}`, method: 'tools/call' }),
    ];
    for (const [k, line] of unread.entries()) {
      const before = raw.replies.length;
      await raw.write(`${line}\n`);
      const r = await raw.reply((m) => raw.replies.indexOf(m) >= before && m.id === undefined);
      expect(r, `${k}`).toEqual({
        jsonrpc: '2.0',
        error: {
          code: -32600,
          message: `Invalid Request: ${overLimit(line.length, LIMIT)}, and no id could be read from it`,
        },
      });
      await answersNext(`unread-${k}`);
    }
    const before = raw.replies.length;
    const notification = JSON.stringify({
      jsonrpc: '2.0',
      method: 'notifications/progress',
      params: { body },
    });
    await raw.write(`${notification}\n`);
    await answersNext('notification');
    // Only the next call's answer came: the notification got none, and stderr tells of it.
    expect(raw.replies.length).toBe(before + 1);
    expect(raw.stderr).toContain(`dropped ${overLimit(notification.length, LIMIT)}: a notification`);
    told.push(`${unread.length} whose id cannot be read`, '1 notification');
  });
});

describe('lines that are not JSON-RPC', () => {
  it('are answered as JSON-RPC 2.0 asks, and the next call is answered', async () => {
    const cases: [line: string, reply: unknown][] = [
      [
        'this is not json',
        { jsonrpc: '2.0', error: { code: -32700, message: 'Parse error: the line is not JSON' } },
      ],
      [
        '{"half": ',
        { jsonrpc: '2.0', error: { code: -32700, message: 'Parse error: the line is not JSON' } },
      ],
      [
        '{"jsonrpc":"2.0","id":5,"method":42}',
        {
          jsonrpc: '2.0',
          id: 5,
          error: { code: -32600, message: 'Invalid Request: not a JSON-RPC 2.0 message' },
        },
      ],
      [
        '[1, 2]',
        { jsonrpc: '2.0', error: { code: -32600, message: 'Invalid Request: not a JSON-RPC 2.0 message' } },
      ],
    ];
    for (const [line, reply] of cases) {
      const before = raw.replies.length;
      // A blank line before it is nothing to answer.
      await raw.write(`\n${line}\r\n`);
      expect(await raw.reply((m) => raw.replies.indexOf(m) >= before), line).toEqual(reply);
      await answersNext(line);
      expect(raw.replies.length, line).toBe(before + 2);
    }
    told.push(`${cases.length} lines that are not JSON-RPC`);
  });
});

const callLine = (id: string, tool: string, args: string) =>
  `{"jsonrpc":"2.0","id":"${id}","method":"tools/call","params":{"name":"${tool}","arguments":${args}}}`;
const tooDeep = (argument: string) => [`ctxbench: arguments: ${argument}: nested deeper than 100 levels`];

describe('values nested deeper than the call stack goes', () => {
  it("the reporter's 7 KB check, nested 3,500 deep, is an error result; the next call is answered", async () => {
    // Issue 33's message: the server passed it to a runner with v8.serialize, overflowed, and ended (exit 3).
    const line = callLine('reported', 'check', `{"candidates":${nested(3500)}}`);
    expect(line.length).toBeGreaterThan(7000);
    await raw.write(`${line}\n`);
    const r = await raw.replyTo('reported');
    expect((r.result as { isError?: boolean }).isError).toBe(true);
    expect(resultTexts(r)).toEqual(tooDeep('candidates'));
    await answersNext('reported');
  });

  it("every tool's argument past 100 levels (the CLI's bound for a file) is an error result naming it; 100 are read", async () => {
    const tools: [tool: string, argument: string, deep: (d: number) => string][] = [
      ['compile', 'request', nestedObject],
      ['explain', 'candidates', nested],
      ['validate', 'compilation', nestedObject],
      ['check', 'policy', nestedObject],
      ['pack', 'include', nested],
    ];
    const depths = [101, 3500, 100_000];
    for (const [tool, argument, deep] of tools) {
      for (const depth of depths) {
        const id = `${tool}-${depth}`;
        await raw.write(`${callLine(id, tool, `{"${argument}":${deep(depth)}}`)}\n`);
        expect(resultTexts(await raw.replyTo(id)), id).toEqual(tooDeep(argument));
        await answersNext(id);
      }
      // At the bound, the argument reaches the tool, which says what it makes of it.
      const id = `${tool}-100`;
      await raw.write(`${callLine(id, tool, `{"${argument}":${deep(100)}}`)}\n`);
      const r = await raw.replyTo(id);
      expect(r.result, id).toBeDefined();
      expect(resultTexts(r)[0], id).not.toContain('nested deeper');
    }
    told.push(
      `${tools.length * depths.length} tool calls (every tool) with an argument nested ${n(depths[0] as number)} to ${n(depths[depths.length - 1] as number)} deep`,
    );
  });

  it('responses to nothing nested 100,000 deep are dropped and told on stderr; notifications are not answered', async () => {
    const deep = nestedObject(100_000);
    // The SDK writes a response to no request into its log with JSON.stringify, which overflowed.
    const DROPPED = 'dropped a message the server could not take: Maximum call stack size exceeded';
    const lines: [line: string, dropped: boolean][] = [
      [`{"jsonrpc":"2.0","id":"to-nothing","result":${deep}}`, true],
      [`{"jsonrpc":"2.0","id":77,"error":{"code":1,"message":"m","data":${deep}}}`, true],
      [
        `{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":7,"progress":1,"x":${deep}}}`,
        false,
      ],
      [
        `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"x","reason":${deep}}}`,
        false,
      ],
    ];
    for (const [k, [line, dropped]] of lines.entries()) {
      const before = raw.replies.length;
      const said = raw.stderr.split(DROPPED).length;
      await raw.write(`${line}\n`);
      await answersNext(`nested-${k}`);
      expect(raw.replies.length, `${k}`).toBe(before + 1);
      expect(raw.stderr.split(DROPPED).length, `${k}`).toBe(said + (dropped ? 1 : 0));
    }
    const responses = lines.filter(([, dropped]) => dropped).length;
    told.push(
      `${responses} responses and ${lines.length - responses} notifications nested ${n(100_000)} deep`,
    );
  });
});

describe('the default limit', () => {
  it('takes the 10 and 20 MB calls that stopped the 2.x server, and refuses one byte past 64 MiB', async () => {
    const server = new RawServer();
    try {
      await server.initialize();
      for (const bytes of [10 * MB, 20 * MB, DEFAULT_LIMIT + 1]) {
        const id = `default-${bytes}`;
        await server.sendLong(CALL_HEAD, padFor(bytes, id), callTail(id));
        const r = await server.replyTo(id);
        if (bytes > DEFAULT_LIMIT) expect(resultTexts(r)[0], id).toContain(overLimit(bytes, DEFAULT_LIMIT));
        else expect(resultTexts(r), id).toEqual(EMPTY_CHECK);
        const next = await server.call(`next-${bytes}`, 'check', { candidates: [] });
        expect(resultTexts(next)).toEqual(EMPTY_CHECK);
      }
    } finally {
      server.child.stdin?.end();
      expect((await server.exited).code).toBe(0);
    }
    figureRow(
      'MCP messages',
      'test/cli/mcp-messages.test.ts',
      `${told.join(', ')}: each answered as JSON-RPC 2.0 asks, then a call answered as usual. Under the default limit (${n(DEFAULT_LIMIT)} bytes) calls of 10 and 20 MB answered, one a byte past it refused`,
    );
  });
});
