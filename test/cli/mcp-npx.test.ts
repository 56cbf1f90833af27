/**
 * The MCP entries of the README and docs, as a client runs them: started in the project the user
 * opened, which nobody vetted. That project's `node_modules/.bin/ctxbench` (any dependency may
 * declare a bin of that name) leaves a mark, and so does the package named `ctxbench` a registry of
 * the test's own serves (anyone could publish one). `npx --no-install ctxbench`, the entry before
 * issue 47, runs the project's; a bare `npx ctxbench` runs the registry's. Every entry of the docs
 * (`node` and the bin's absolute path) runs neither and serves pack of the project. The server
 * runs itself again under the permission model by its bin's real path, which it may read, not by
 * a link it was started through, which it may not; a relative `dir` is the served root's.
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
const CLONE = path.resolve(BIN, '../..');
/** A bin that leaves a mark where MARK says: what a project's dependency or a registry could ship. */
const MARKING = '#!/usr/bin/env node\nrequire("fs").writeFileSync(process.env.MARK, "ran");\n';
const app = path.join(tmp, 'app');
makeProject(app);
const dep = path.join(app, 'node_modules/some-dep');
fs.mkdirSync(dep, { recursive: true });
fs.writeFileSync(
  path.join(dep, 'package.json'),
  '{ "name": "some-dep", "version": "1.0.0", "bin": { "ctxbench": "cli.js" } }',
);
fs.writeFileSync(path.join(dep, 'cli.js'), MARKING, { mode: 0o755 });
fs.mkdirSync(path.join(app, 'node_modules/.bin'));
fs.symlinkSync('../some-dep/cli.js', path.join(app, 'node_modules/.bin/ctxbench'));

const clients: Client[] = [];
afterAll(async () => {
  for (const c of clients) await c.close();
});

/** The environment a client gives its servers: npx finds node beside it, and nothing is asked. */
function clientEnv(mark: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env))
    if (v !== undefined && !k.toLowerCase().startsWith('npm_config_')) env[k] = v;
  env.PATH = `${path.dirname(process.execPath)}${path.delimiter}${env.PATH ?? ''}`;
  env.MARK = mark;
  env.npm_config_update_notifier = 'false';
  return env;
}

/** An entry's arguments with the docs' placeholders made this clone and the project. */
const filled = (args: readonly string[]): string[] =>
  args.map((a) => a.replace('/path/to/ctxbench', CLONE).replace('/path/to/project', app));

/** A client of the server `command args` starts in `cwd`, as an MCP client's configuration does. */
async function started(command: string, args: string[], cwd: string): Promise<Client> {
  const client = new Client({ name: 'readme-snippet', version: '0' });
  const env = { ...clientEnv(path.join(tmp, 'client-mark')), npm_config_offline: 'true' };
  await client.connect(new StdioClientTransport({ command, args, cwd, env, stderr: 'pipe' }));
  clients.push(client);
  return client;
}

const TASK = 'Fix clamp so that lo < hi';

it("the README's entry, started in a project with a ctxbench bin of its own, serves pack of that project", async () => {
  const snippet = JSON.parse(
    /```json\n(\{ "mcpServers".*\})\n```/.exec(fs.readFileSync(path.join(CLONE, 'README.md'), 'utf8'))?.[1] ??
      'null',
  ) as { mcpServers: { ctxbench: { command: string; args: string[] } } };
  const { command, args } = snippet.mcpServers.ctxbench;
  expect([command, ...args]).toEqual([
    'node',
    '/path/to/ctxbench/bin/ctxbench.js',
    'mcp',
    '--root',
    '/path/to/project',
  ]);
  const client = await started(command, filled(args), app);
  const { tools } = await client.listTools();
  expect(tools.map((t) => t.name)).toContain('pack');
  const here = await client.callTool({
    name: 'pack',
    arguments: { dir: '.', task: TASK, budget: 3000, max_bytes: MAX_BYTES },
  });
  expect(here.isError, texts(here).join('\n')).not.toBe(true);
  expect(texts(here)[0]).toContain('## src/util.ts (full,');
  expect(fs.existsSync(path.join(tmp, 'client-mark'))).toBe(false);
  // Through a link outside every folder it serves, as npx's cache and `npm link`'s global bin
  // start it (`/usr/bin/ctxbench -> ../lib/node_modules/ctxbench/bin/ctxbench.js`).
  const global = path.join(tmp, 'global');
  fs.mkdirSync(path.join(global, 'lib/node_modules'), { recursive: true });
  fs.mkdirSync(path.join(global, 'bin'));
  fs.symlinkSync(CLONE, path.join(global, 'lib/node_modules/ctxbench'));
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
}, 120_000);

/** Every MCP client entry of the README, docs/mcp.md and docs/cli.md: its command and arguments. */
function docEntries(): [string, string[]][] {
  const docs = ['README.md', 'docs/mcp.md', 'docs/cli.md'].map((f) =>
    fs.readFileSync(path.join(CLONE, f), 'utf8'),
  );
  const entries = docs.flatMap((d) =>
    [...d.matchAll(/"command": "([^"]+)", "args": (\[[^\]]*\])/g)].map((m): [string, string[]] => [
      m[1] as string,
      JSON.parse(m[2] as string) as string[],
    ]),
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
  fs.writeFileSync(path.join(pkg, 'bin.js'), MARKING);
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

it("no entry of the docs runs the project's ctxbench bin or a registry's package of that name", async () => {
  const dir = path.join(tmp, 'registry');
  const registry = await plantedRegistry(dir);
  const empty = path.join(tmp, 'elsewhere');
  fs.mkdirSync(empty);
  // npm as a user has it: no configuration of this machine's (whose `yes = false` would hide what
  // a default npx does), a cache of its own, the planted registry.
  const npmrc = path.join(dir, 'npmrc');
  fs.writeFileSync(npmrc, '');
  /** Runs `command args` in `cwd` with stdin a pipe closed at once; its exit code, and whether a mark was left. */
  const ran = async (command: string, args: readonly string[], cwd: string, n: number) => {
    const mark = path.join(dir, `mark-${n}`);
    const env = {
      ...clientEnv(mark),
      npm_config_userconfig: npmrc,
      npm_config_globalconfig: path.join(dir, 'global-npmrc'),
      npm_config_registry: registry.url,
      npm_config_cache: path.join(dir, `cache-${n}`),
    };
    const code = await new Promise<number>((done) => {
      const child = execFile(command, [...args], { cwd, env, timeout: 120_000 }, (e) =>
        done(e === null ? 0 : typeof e.code === 'number' ? e.code : -1),
      );
      child.stdin?.end();
    });
    return { code, marked: fs.existsSync(mark) };
  };
  try {
    // What the entries replaced: npx runs the project's own bin, and where there is none, the registry's.
    expect((await ran('npx', ['--no-install', 'ctxbench', 'mcp', '--root', '.'], app, 0)).marked).toBe(true);
    expect((await ran('npx', ['ctxbench', 'mcp', '--root', '.'], empty, 1)).marked).toBe(true);
    // Each distinct entry once: the docs repeat one entry, and a server start is seconds of CPU.
    const distinct = new Map(docEntries().map((e) => [JSON.stringify(e), e]));
    for (const [i, [command, args]] of [...distinct.values()].entries()) {
      expect([command, args[0]], args.join(' ')).toEqual(['node', '/path/to/ctxbench/bin/ctxbench.js']);
      // The server starts, serves the project, and ends when its stdin closes; nothing else runs.
      for (const [k, cwd] of [app, empty].entries())
        expect(
          await ran(command, filled(args), cwd, 10 * (i + 1) + k),
          `${args.join(' ')} in ${cwd}`,
        ).toEqual({
          code: 0,
          marked: false,
        });
    }
  } finally {
    registry.close();
  }
}, 300_000);
