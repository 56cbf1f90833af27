/**
 * The README's `mcpServers` entry, as a client runs it: `npx --no-install ctxbench mcp --root .` in a project
 * that is not the clone, where ctxbench is reached through a link in node_modules/.bin (what
 * `npm link`, an installed tarball and npx's own cache all make). The server runs itself again
 * under the permission model; it must do so by its bin's real path, which it may read, not by the
 * link it was started through, which it may not. A relative `dir` is the served root's. Where
 * ctxbench is not installed, no entry the docs give runs a package of that name from the registry.
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
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
  expect([command, ...args]).toEqual(['npx', '--no-install', 'ctxbench', 'mcp', '--root', '.']);
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

/** Every `npx` entry of an MCP client's configuration in the README and docs/mcp.md and docs/cli.md. */
function npxEntries(): string[][] {
  const docs = ['README.md', 'docs/mcp.md', 'docs/cli.md'].map((f) =>
    fs.readFileSync(path.join(BIN, '../..', f), 'utf8'),
  );
  const entries = docs.flatMap((d) =>
    [...d.matchAll(/"command": "npx", "args": (\[[^\]]*\])/g)].map(
      (m) => JSON.parse(m[1] as string) as string[],
    ),
  );
  expect(entries.length).toBeGreaterThanOrEqual(4);
  return entries;
}

/**
 * A registry of the test's own on loopback serving one package, `ctxbench`, whose bin writes a
 * mark: what anyone could publish under that name.
 */
async function plantedRegistry(dir: string): Promise<{ url: string; close: () => void }> {
  const pkg = path.join(dir, 'package');
  fs.mkdirSync(pkg, { recursive: true });
  fs.writeFileSync(
    path.join(pkg, 'package.json'),
    JSON.stringify({ name: 'ctxbench', version: '9.9.9', bin: { ctxbench: 'bin.js' } }),
  );
  fs.writeFileSync(
    path.join(pkg, 'bin.js'),
    '#!/usr/bin/env node\nrequire("fs").writeFileSync(process.env.MARK, "ran");\n',
  );
  const tgz = path.join(dir, 'ctxbench-9.9.9.tgz');
  await new Promise<void>((ok, fail) =>
    execFile('tar', ['-czf', tgz, '-C', dir, 'package'], (e) => (e ? fail(e) : ok())),
  );
  const bytes = fs.readFileSync(tgz);
  const server = http.createServer((req, res) => {
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    if (req.url === '/ctxbench') {
      const dist = {
        tarball: `${base}/ctxbench/-/ctxbench-9.9.9.tgz`,
        integrity: `sha512-${createHash('sha512').update(bytes).digest('base64')}`,
        shasum: createHash('sha1').update(bytes).digest('hex'),
      };
      const version = { name: 'ctxbench', version: '9.9.9', bin: { ctxbench: 'bin.js' }, dist };
      res.setHeader('content-type', 'application/json');
      res.end(
        JSON.stringify({
          name: 'ctxbench',
          'dist-tags': { latest: '9.9.9' },
          versions: { '9.9.9': version },
        }),
      );
    } else if (req.url?.endsWith('.tgz')) res.end(bytes);
    else {
      res.statusCode = 404;
      res.end('{}');
    }
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, close: () => server.close() };
}

it('where ctxbench is not installed, no npx entry of the docs runs a package of that name from the registry', async () => {
  const dir = path.join(tmp, 'registry');
  const registry = await plantedRegistry(dir);
  const empty = path.join(tmp, 'elsewhere');
  fs.mkdirSync(empty);
  // npm as a user has it: no configuration of this machine's (whose `yes = false` would hide what
  // a default npx does), a cache of its own, the planted registry.
  const npmrc = path.join(dir, 'npmrc');
  fs.writeFileSync(npmrc, '');
  /** Runs `npx args` in `empty` with stdin a pipe (as an MCP client does); whether the mark was left. */
  const ran = async (args: readonly string[], n: number): Promise<boolean> => {
    const mark = path.join(dir, `mark-${n}`);
    const env: Record<string, string> = {};
    for (const [k, v] of Object.entries(process.env))
      if (v !== undefined && !k.toLowerCase().startsWith('npm_config_')) env[k] = v;
    Object.assign(env, {
      PATH: `${path.dirname(process.execPath)}${path.delimiter}${process.env.PATH ?? ''}`,
      MARK: mark,
      npm_config_userconfig: npmrc,
      npm_config_globalconfig: path.join(dir, 'global-npmrc'),
      npm_config_registry: registry.url,
      npm_config_cache: path.join(dir, `cache-${n}`),
      npm_config_update_notifier: 'false',
    });
    await new Promise<void>((done) => {
      const child = execFile('npx', [...args], { cwd: empty, env, timeout: 120_000 }, () => done());
      child.stdin?.end();
    });
    return fs.existsSync(mark);
  };
  try {
    // What the entries replaced: a bare npx installs the planted package and runs it.
    expect(await ran(['ctxbench', 'mcp', '--root', '.'], 0)).toBe(true);
    const entries = npxEntries();
    for (const [i, args] of entries.entries()) {
      expect(args[0]).toBe('--no-install');
      expect(await ran(args, i + 1)).toBe(false);
    }
  } finally {
    registry.close();
  }
}, 300_000);
