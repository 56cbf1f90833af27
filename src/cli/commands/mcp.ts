import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { mcpServer } from '../../harness/mcp/index.js';
import { defineCommand, timeoutOf, timeoutOption } from '../command.js';
import { EXIT } from '../io.js';

/**
 * The compiler served to an MCP client (Claude Desktop and Code, VS Code, Cursor) over stdio:
 * stdout carries the protocol alone, so the command prints nothing else; it ends when the client
 * closes its end.
 */
export const mcp = defineCommand({
  examples: [
    ['$0 mcp', "serve compile to an MCP client over stdio (docs/cli.md has the client's configuration)"],
  ],
  options: (y) => y.option('timeout', timeoutOption),
  run: async (a, { version }) => {
    const server = mcpServer(version(), { timeout: timeoutOf(a.timeout) });
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
