import { MAX_TEXT_BYTES } from '../../harness/corpus/index.js';
import { UsageError } from '../../harness/errors.js';
import {
  DEFAULT_MAX_MESSAGE,
  LineTransport,
  mcpServer,
  relaunched,
  rootsOf,
  serverFlags,
  TETHER_FD,
  TIED,
  tether,
  underPermission,
} from '../../mcp/index.js';
import { defineCommand, timeoutOf, timeoutOption } from '../command.js';
import { EXIT, type ExitCode } from '../io.js';

const FROM_SOURCE = import.meta.url.endsWith('.ts');

/**
 * The compiler served to an MCP client (Claude Desktop and Code, VS Code, Cursor) over stdio:
 * stdout carries the protocol alone, so the command prints nothing else; it ends when the client
 * closes its end. From the built package it first runs itself again under Node's permission model,
 * reading only its own files and the folders given with --root (src/mcp/permission.ts), and
 * tied to this process: when this one ends, however it ends, so does the server with every
 * process it started (src/mcp/tether.ts).
 */
export const mcp = defineCommand({
  examples: [
    ['$0 mcp', "serve the tools to an MCP client over stdio (docs/cli.md has the client's configuration)"],
    [
      '$0 mcp --root ~/src/app --root ~/src/lib',
      'pack may read these two folders (default: the current one)',
    ],
  ],
  options: (y) =>
    y
      .option('root', {
        type: 'string',
        array: true,
        describe:
          'a folder pack may read (repeat for more; default: the current folder); not / or the home folder',
      })
      .option('timeout', {
        ...timeoutOption,
        describe: 'ms a tool call may take; past it its work is stopped and the call is an error',
      })
      .option('max-message', {
        type: 'number',
        default: DEFAULT_MAX_MESSAGE,
        describe: 'bytes one message may hold; a longer one is answered with an error and dropped',
      }),
  run: async (a, { version }) => {
    const roots = rootsOf(a.root ?? [process.cwd()], a.root === undefined);
    const timeout = timeoutOf(a.timeout);
    const maxMessage = a.maxMessage;
    if (!Number.isSafeInteger(maxMessage) || maxMessage < 1 || maxMessage > MAX_TEXT_BYTES)
      throw new UsageError(`--max-message must be a whole number of bytes from 1 to ${MAX_TEXT_BYTES}`);
    // The server's exit code is this command's: a code the CLI gives, or a signal's as 128 + n.
    if (!FROM_SOURCE && !underPermission()) return (await relaunched(serverFlags(roots))) as ExitCode;
    if (process.env[TIED] === String(TETHER_FD)) {
      delete process.env[TIED];
      tether(TETHER_FD, 'self');
    }
    const server = mcpServer(version(), { timeout, roots }, maxMessage);
    const transport = new LineTransport(process.stdin, process.stdout, maxMessage);
    // What the client cannot be told (a message dropped unanswered, a response to nothing): stderr,
    // which MCP leaves to a server's logging, one line each.
    server.onerror = (e) =>
      process.stderr.write(`ctxbench mcp: ${e.message.split('\n')[0]?.slice(0, 300)}\n`);
    await server.connect(transport);
    await transport.closed;
    await server.close();
    return EXIT.ok;
  },
});
