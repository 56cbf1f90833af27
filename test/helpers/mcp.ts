/** An MCP client of `ctxbench mcp`, spoken to by the SDK's own Client over stdio. */
import fs from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { CORPUS_DIR, ROOT } from './corpus.js';

export const BIN = path.join(ROOT, 'bin/ctxbench.js');

/**
 * A client connected to `bin mcp ...args` (the built package's, by default), and the pid of the
 * process that serves: the one the command runs again under the permission model.
 */
export async function mcpClient(
  bin = BIN,
  args: readonly string[] = [],
  cwd?: string,
): Promise<{ client: Client; pid: number }> {
  const client = new Client({ name: 'ctxbench-test', version: '0' });
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [bin, 'mcp', ...args],
    stderr: 'pipe',
    ...(cwd === undefined ? {} : { cwd }),
  });
  await client.connect(transport);
  const [server] = childrenOf(transport.pid as number);
  if (server === undefined) throw new Error('ctxbench mcp did not run itself under the permission model');
  return { client, pid: server };
}

/** The pids of a process's children (Linux). */
export const childrenOf = (pid: number): number[] =>
  fs
    .readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8')
    .trim()
    .split(/\s+/)
    .filter((p) => p !== '')
    .map(Number);

type Text = { type: 'text'; text: string };
export const texts = (r: Awaited<ReturnType<Client['callTool']>>): string[] =>
  (r.content as Text[]).map((c) => c.text);

const read = (f: string) => JSON.parse(fs.readFileSync(f, 'utf8')) as unknown;

/** One reference case's files, and its records as a tool's arguments. */
export function referenceCase(name: string) {
  const files = {
    request: path.join(CORPUS_DIR, `${name}.request.json`),
    candidates: path.join(CORPUS_DIR, `${name}.candidates.json`),
    policy: path.join(CORPUS_DIR, 'compiler-policy-v1.json'),
  };
  return {
    files,
    args: {
      request: read(files.request) as Record<string, unknown>,
      candidates: read(files.candidates),
      policy: read(files.policy),
    },
  };
}
