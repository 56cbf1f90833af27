/**
 * The README's `mcpServers` entry, as a client runs it: `npx ctxbench mcp --root .` in a project
 * that is not the clone, where ctxbench is reached through a link in node_modules/.bin (what
 * `npm link`, an installed tarball and npx's own cache all make). The server runs itself again
 * under the permission model; it must do so by its bin's real path, which it may read, not by the
 * link it was started through, which it may not. A relative `dir` is the served root's.
 */
import fs from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, expect, it } from 'vitest';
import { MAX_BYTES, makeProject } from '../helpers/ingest-fixture.js';
import { BIN, texts } from '../helpers/mcp.js';
import { tempDir } from '../helpers/temp.js';

const tmp = tempDir('mcp-npx');
const app = path.join(tmp, 'app');
makeProject(app);
fs.mkdirSync(path.join(app, 'node_modules/.bin'), { recursive: true });
fs.symlinkSync(BIN, path.join(app, 'node_modules/.bin/ctxbench'));

const clients: Client[] = [];
afterAll(async () => {
  for (const c of clients) await c.close();
});

/** A client of the server `command args` starts in `cwd`, as an MCP client's configuration does. */
async function started(command: string, args: string[], cwd: string): Promise<Client> {
  const client = new Client({ name: 'readme-snippet', version: '0' });
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined) env[k] = v;
  // npx finds node beside it; offline, and with nothing to tell about npm's own updates.
  env.PATH = `${path.dirname(process.execPath)}${path.delimiter}${env.PATH ?? ''}`;
  env.npm_config_update_notifier = 'false';
  env.npm_config_offline = 'true';
  await client.connect(new StdioClientTransport({ command, args, cwd, env, stderr: 'pipe' }));
  clients.push(client);
  return client;
}

const TASK = 'Fix clamp so that lo < hi';

it("the README's npx entry, from a project that is not the clone, serves pack of that project", async () => {
  const snippet = JSON.parse(
    /```json\n(\{ "mcpServers".*\})\n```/.exec(
      fs.readFileSync(path.join(BIN, '../../README.md'), 'utf8'),
    )?.[1] ?? 'null',
  ) as { mcpServers: { ctxbench: { command: string; args: string[] } } };
  const { command, args } = snippet.mcpServers.ctxbench;
  expect([command, ...args]).toEqual(['npx', 'ctxbench', 'mcp', '--root', '.']);
  const client = await started(command, args, app);
  const { tools } = await client.listTools();
  expect(tools.map((t) => t.name)).toContain('pack');
  const here = await client.callTool({
    name: 'pack',
    arguments: { dir: '.', task: TASK, budget: 3000, max_bytes: MAX_BYTES },
  });
  expect(here.isError, texts(here).join('\n')).not.toBe(true);
  expect(texts(here)[0]).toContain('## src/util.ts (full,');

  // Through a link outside every folder it serves, as npx's cache and `npm link`'s global bin
  // start it (`/usr/bin/ctxbench -> ../lib/node_modules/ctxbench/bin/ctxbench.js`).
  const global = path.join(tmp, 'global');
  fs.mkdirSync(path.join(global, 'lib/node_modules'), { recursive: true });
  fs.mkdirSync(path.join(global, 'bin'));
  fs.symlinkSync(path.resolve(BIN, '../..'), path.join(global, 'lib/node_modules/ctxbench'));
  fs.symlinkSync('../lib/node_modules/ctxbench/bin/ctxbench.js', path.join(global, 'bin/ctxbench'));
  const linked = await started(path.join(global, 'bin/ctxbench'), ['mcp', '--root', '.'], app);
  expect(
    texts(
      await linked.callTool({
        name: 'pack',
        arguments: { dir: '.', task: TASK, budget: 3000, max_bytes: MAX_BYTES },
      }),
    ),
  ).toEqual(texts(here));

  // Started elsewhere (a client may start it in /), `"."` is still the folder it serves.
  const elsewhere = await started(process.execPath, [BIN, 'mcp', '--root', app], tmp);
  const there = await elsewhere.callTool({
    name: 'pack',
    arguments: { dir: '.', task: TASK, budget: 3000, max_bytes: MAX_BYTES },
  });
  expect(texts(there)).toEqual(texts(here));
  // And a folder outside the root is refused, however it is named.
  const outside = await elsewhere.callTool({
    name: 'pack',
    arguments: { dir: '..', task: TASK, budget: 3000 },
  });
  expect(outside.isError).toBe(true);
  expect(texts(outside)[0]).toMatch(/is outside the folders this server reads/);
}, 60_000);
