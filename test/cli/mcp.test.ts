/**
 * `ctxbench mcp` end to end: the built server spawned over stdio and spoken to by the MCP SDK's own
 * Client. Its tools and resources are listed, `compile` gives the bytes `ctxbench compile` prints
 * for the same records, and bad input comes back as a tool error carrying the CLI's line while the
 * server goes on answering.
 */
import fs from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, tempDir } from '../helpers/cli.js';
import { CORPUS_DIR, ROOT } from '../helpers/corpus.js';

const tmp = tempDir('mcp');
const BIN = path.join(ROOT, 'bin/ctxbench.js');
const read = (f: string) => JSON.parse(fs.readFileSync(f, 'utf8')) as unknown;
const CASE = 'dependency-trap';
const files = {
  request: path.join(CORPUS_DIR, `${CASE}.request.json`),
  candidates: path.join(CORPUS_DIR, `${CASE}.candidates.json`),
  policy: path.join(CORPUS_DIR, 'compiler-policy-v1.json'),
};

let client: Client;
beforeAll(async () => {
  client = new Client({ name: 'ctxbench-test', version: '0' });
  // The built package, as a client's configuration starts it.
  await client.connect(
    new StdioClientTransport({ command: process.execPath, args: [BIN, 'mcp'], stderr: 'pipe' }),
  );
});
afterAll(async () => {
  await client.close();
});

type Text = { type: 'text'; text: string };
const texts = (r: Awaited<ReturnType<Client['callTool']>>) => (r.content as Text[]).map((c) => c.text);

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
        /^ctxbench: --budget must be a whole number of tokens >= 0/,
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
});
