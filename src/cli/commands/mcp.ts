import { spawn } from 'node:child_process';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { mcpServer, rootsOf, serverFlags, underPermission } from '../../harness/mcp/index.js';
import { defineCommand, timeoutOf, timeoutOption } from '../command.js';
import { EXIT, type ExitCode } from '../io.js';

const FROM_SOURCE = import.meta.url.endsWith('.ts');

/**
 * The compiler served to an MCP client (Claude Desktop and Code, VS Code, Cursor) over stdio:
 * stdout carries the protocol alone, so the command prints nothing else; it ends when the client
 * closes its end. From the built package it first runs itself again under Node's permission model,
 * reading only its own files and the folders given with --root (harness/mcp/permission.ts).
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
      .option('timeout', timeoutOption),
  run: async (a, { version }) => {
    const roots = rootsOf(a.root ?? [process.cwd()]);
    const timeout = timeoutOf(a.timeout);
    if (!FROM_SOURCE && !underPermission()) return relaunched(serverFlags(roots));
    const server = mcpServer(version(), { timeout, roots });
    const closed = new Promise<void>((resolve) => {
      process.stdin.once('end', resolve);
      process.stdin.once('close', resolve);
    });
    await server.connect(new StdioServerTransport());
    await closed;
    await server.close();
    return EXIT.ok;
  },
});

/** This command again, under `flags`, on this process's stdio; its exit code, a signal as 128 + n. */
function relaunched(flags: readonly string[]): Promise<ExitCode> {
  const child = spawn(process.execPath, [...flags, ...process.argv.slice(1)], { stdio: 'inherit' });
  const forward = (signal: NodeJS.Signals) => () => child.kill(signal);
  for (const s of ['SIGINT', 'SIGTERM'] as const) process.on(s, forward(s));
  return new Promise((resolve) => {
    child.on('exit', (code, signal) =>
      resolve((code ?? (signal === 'SIGINT' ? 130 : signal === 'SIGKILL' ? 137 : 143)) as ExitCode),
    );
  });
}
