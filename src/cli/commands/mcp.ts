import { spawn } from 'node:child_process';
import fs from 'node:fs';
import type { Socket } from 'node:net';
import { MAX_TEXT_BYTES } from '../../harness/corpus/index.js';
import { UsageError } from '../../harness/errors.js';
import { fromRoot } from '../../harness/paths.js';
import {
  DEFAULT_MAX_MESSAGE,
  LineTransport,
  mcpServer,
  rootsOf,
  serverFlags,
  TETHER_FD,
  tether,
  underPermission,
} from '../../mcp/index.js';
import { defineCommand, timeoutOf, timeoutOption } from '../command.js';
import { EXIT, type ExitCode } from '../io.js';

const FROM_SOURCE = import.meta.url.endsWith('.ts');
/** Set in the locked server's environment alone, by the command that started it: fd TETHER_FD is its tie. */
const TIED = 'CTXBENCH_MCP_TETHER';

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
        describe: 'a folder pack may read (repeat for more; default: the current folder)',
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
    const roots = rootsOf(a.root ?? [process.cwd()]);
    const timeout = timeoutOf(a.timeout);
    const maxMessage = a.maxMessage;
    if (!Number.isSafeInteger(maxMessage) || maxMessage < 1 || maxMessage > MAX_TEXT_BYTES)
      throw new UsageError(`--max-message must be a whole number of bytes from 1 to ${MAX_TEXT_BYTES}`);
    if (!FROM_SOURCE && !underPermission()) return relaunched(serverFlags(roots));
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

/**
 * This command again, under `flags`, on this process's stdio and tied to it by a pipe only this
 * process holds; its exit code, a signal as 128 + n.
 */
function relaunched(flags: readonly string[]): Promise<ExitCode> {
  // The bin by its real path, not the one it was started by: npx and `npm link` start it through
  // a link in a folder the server may not read, and Node resolves its entry's path before running.
  const bin = fs.realpathSync(fromRoot('bin', 'ctxbench.js'));
  const child = spawn(process.execPath, [...flags, bin, ...process.argv.slice(2)], {
    stdio: ['inherit', 'inherit', 'inherit', 'pipe'],
    env: { ...process.env, [TIED]: String(TETHER_FD) },
  });
  // Held, never read or written: its end is the child's word that this process is gone.
  (child.stdio[TETHER_FD] as Socket).unref();
  const forward = (signal: NodeJS.Signals) => () => child.kill(signal);
  for (const s of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(s, forward(s));
  return new Promise((resolve) => {
    child.on('exit', (code, signal) =>
      resolve((code ?? (signal === 'SIGINT' ? 130 : signal === 'SIGKILL' ? 137 : 143)) as ExitCode),
    );
  });
}
