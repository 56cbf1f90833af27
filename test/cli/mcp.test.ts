/**
 * `ctxbench mcp` end to end: the built server spawned over stdio and spoken to by the MCP SDK's own
 * Client. Its tools and resources are listed, `compile` gives the bytes `ctxbench compile` prints
 * for the same records, and bad input comes back as a tool error carrying the CLI's line while the
 * server goes on answering (messages that are not JSON-RPC, or too long: mcp-messages.test.ts).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli } from '../helpers/cli.js';
import { ROOT } from '../helpers/corpus.js';
import { makeProject } from '../helpers/ingest-fixture.js';
import { BIN, mcpClient, referenceCase, texts } from '../helpers/mcp.js';
import { tempDir } from '../helpers/temp.js';

const tmp = tempDir('mcp');
const read = (f: string) => JSON.parse(fs.readFileSync(f, 'utf8')) as unknown;
const { files } = referenceCase('dependency-trap');

let client: Client;
beforeAll(async () => {
  // The built package, as a client's configuration starts it.
  ({ client } = await mcpClient());
});
afterAll(async () => {
  await client.close();
});

describe('ctxbench mcp', () => {
  it('lists compile, its input schema made of the shipped JSON Schemas', async () => {
    const { tools } = await client.listTools();
    const compile = tools.find((t) => t.name === 'compile');
    const shipped = JSON.parse(fs.readFileSync(path.join(ROOT, 'schemas/request.schema.json'), 'utf8'));
    expect(compile?.inputSchema.required).toEqual(['candidates', 'request']);
    // The request's schema as shipped, its $schema and title aside.
    const { $schema: _s, title: _t, ...request } = shipped;
    expect(compile?.inputSchema.properties?.request).toEqual(request);
  });

  it('compile: the bytes ctxbench compile prints for the same records and strategy', async () => {
    for (const strategy of ['compiler-v2', 'compiler']) {
      const r = await client.callTool({
        name: 'compile',
        arguments: {
          request: read(files.request),
          candidates: read(files.candidates),
          policy: read(files.policy),
          strategy,
          // The study's certification, as `ctxbench compile` runs it.
          certify: true,
        },
      });
      expect(r.isError, texts(r).join('\n')).not.toBe(true);
      const out = path.join(tmp, `${strategy}.json`);
      const c = await cli(
        'compile',
        '--request',
        files.request,
        '--candidates',
        files.candidates,
        '--policy',
        files.policy,
        '--strategy',
        strategy,
        '--output',
        out,
      );
      expect(c.code, c.stderr).toBe(0);
      expect(texts(r)[0]).toBe(fs.readFileSync(out, 'utf8'));
      expect(texts(r)[1]).toMatch(/^(a bundle of \d+ items|refused: [A-Z_]+); trace: \d+ /);
    }
  });

  it('compile answers at once by default: the certified answer where the short search proves it, with its distance, 0', async () => {
    const args = {
      request: read(files.request),
      candidates: read(files.candidates),
      policy: read(files.policy),
    };
    const now = await client.callTool({ name: 'compile', arguments: args });
    const proven = await client.callTool({ name: 'compile', arguments: { ...args, certify: true } });
    const [a, b] = [JSON.parse(texts(now)[0] as string), JSON.parse(texts(proven)[0] as string)];
    expect(a.extras.within_percent).toBe(0);
    expect(b.extras).not.toHaveProperty('within_percent');
    const { within_percent: _w, ...rest } = a.extras;
    expect({ ...a, extras: rest }).toEqual(b);
    expect(texts(now)[1]).toMatch(/^a bundle of \d+ items, within 0% of the optimum; trace: /);
    const bad = await client.callTool({ name: 'compile', arguments: { ...args, certify: 'yes' } });
    expect(bad.isError).toBe(true);
    expect(texts(bad)).toEqual(['ctxbench: certify must be true or false']);
  });

  it('bad input is a tool error with the CLI line, and the server answers the next call', async () => {
    const request = read(files.request) as Record<string, unknown>;
    const cases: [Record<string, unknown>, RegExp][] = [
      [
        { request: { ...request, usable_token_budget: 'lots' }, candidates: [] },
        /^ctxbench: arguments: .*usable_token_budget/,
      ],
      [
        { request, candidates: read(files.candidates), strategy: 'nosuch' },
        /^ctxbench: unknown strategy "nosuch"/,
      ],
      [
        { request, candidates: read(files.candidates), budget: -1 },
        /^ctxbench: budget must be a whole number of tokens >= 0/,
      ],
    ];
    for (const [args, message] of cases) {
      const r = await client.callTool({ name: 'compile', arguments: args });
      expect(r.isError, JSON.stringify(args).slice(0, 80)).toBe(true);
      expect(texts(r)).toHaveLength(1);
      expect(texts(r)[0]).toMatch(message);
    }
    const ok = await client.callTool({
      name: 'compile',
      arguments: { request, candidates: read(files.candidates) },
    });
    expect(ok.isError).not.toBe(true);
  });

  it('serves the formats document and every JSON Schema as resources', async () => {
    const { resources } = await client.listResources();
    const schemas = fs.readdirSync(path.join(ROOT, 'schemas')).filter((f) => f.endsWith('.schema.json'));
    expect(resources.map((r) => r.name).sort()).toEqual(['formats.md', ...schemas].sort());
    const formats = await client.readResource({ uri: 'ctxbench://docs/formats.md' });
    expect((formats.contents[0] as { text: string }).text).toBe(
      fs.readFileSync(path.join(ROOT, 'docs/formats.md'), 'utf8'),
    );
  });

  it('is served from the files the package ships: every resource is in npm pack', async () => {
    const packed = spawnSync('npm', ['pack', '--dry-run', '--ignore-scripts', '--json'], {
      cwd: ROOT,
      encoding: 'utf8',
    });
    expect(packed.status, packed.stderr).toBe(0);
    const shipped = new Set((JSON.parse(packed.stdout)[0].files as { path: string }[]).map((f) => f.path));
    const { resources } = await client.listResources();
    // A resource's URI is its file's path in the package.
    const wanted = resources.map((r) => r.uri.replace('ctxbench://', ''));
    expect(wanted.length).toBeGreaterThan(1);
    for (const file of wanted) expect(shipped, file).toContain(file);
    // The tarball runs as `npx ctxbench` without a build of its own (npm does not run the clone's
    // `prepare` for it): the bin, the built CLI and the strategies' host are in it.
    for (const file of [
      'bin/ctxbench.js',
      'dist/src/cli/main.js',
      'dist/src/harness/hosts/child/strategy-host.js',
    ])
      expect(shipped, file).toContain(file);
  });

  it("docs/mcp.md's example conversation is what the server answers now", () => {
    const r = spawnSync(process.execPath, [path.join(ROOT, 'scripts/mcp-example.mjs'), '--check'], {
      encoding: 'utf8',
    });
    expect(r.status, r.stderr).toBe(0);
  });

  it('reads only its package and the folders it serves: pack elsewhere is a tool error', async () => {
    const base = fs.realpathSync(tmp);
    const served = path.join(base, 'served');
    const other = path.join(base, 'other');
    makeProject(path.join(served, 'tree'));
    makeProject(path.join(other, 'tree'));
    // Inside the served folder by its name, outside it by where it leads.
    fs.symlinkSync(path.join(other, 'tree'), path.join(served, 'escape'));
    const locked = await mcpClient(BIN, ['--root', served]);
    try {
      const argv = fs.readFileSync(`/proc/${locked.pid}/cmdline`, 'utf8').split('\0');
      expect(argv.filter((a) => /^--(experimental-)?permission$/.test(a))).toHaveLength(1);
      expect(argv.filter((a) => a.startsWith('--allow-fs-write'))).toEqual([]);
      const grants = argv
        .filter((a) => a.startsWith('--allow-fs-read='))
        .map((a) => a.split('=')[1] as string);
      expect(grants).toContain(served);
      expect(grants.filter((g) => other === g || other.startsWith(`${g}/`))).toEqual([]);
      const pack = (dir: string) =>
        locked.client.callTool({ name: 'pack', arguments: { dir, task: 'fix clamp', budget: 2000 } });
      for (const dir of [path.join(other, 'tree'), path.join(served, 'escape')]) {
        const r = await pack(dir);
        expect(r.isError, dir).toBe(true);
        expect(texts(r)[0], dir).toMatch(/ is outside the folders this server reads \(/);
      }
      expect((await pack(path.join(served, 'tree'))).isError).not.toBe(true);
    } finally {
      await locked.client.close();
    }
  });
});
