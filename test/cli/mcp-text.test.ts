/**
 * An MCP call's arguments are JSON, which may escape half a surrogate pair: not Unicode text, with
 * no UTF-8 bytes to count or hash. A file holding one is refused by every command that reads it
 * (and is one problem for `check`), so the same records passed as arguments must be too, in the
 * same words, with the argument named where the CLI names the file (issue 47: the server compiled
 * them, and `check` found nothing).
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, inputFlags } from '../helpers/cli.js';
import { BIN, mcpClient, referenceCase, texts } from '../helpers/mcp.js';
import { tempDir } from '../helpers/temp.js';

const tmp = tempDir('mcp-text');
const { files, args } = referenceCase('budget-slack');

type Pool = { candidates: { candidate_id: string; content: string }[] };
/** The case's pool with half a surrogate pair in the first candidate's content. */
const pool = structuredClone(args.candidates) as Pool;
const first = pool.candidates[0] as Pool['candidates'][number];
first.content = 'bad \ud800 half';
/** The same pool as a file, written as JSON.stringify writes it: the half as an escape. */
const file = path.join(tmp, 'lone.candidates.json');

let client: Client;
beforeAll(async () => {
  fs.writeFileSync(file, JSON.stringify(pool));
  ({ client } = await mcpClient(BIN, ['--root', tmp]));
}, 60_000);
afterAll(async () => {
  await client?.close();
});

describe('half a surrogate pair in an argument', () => {
  it('is refused by compile, explain and validate as compile refuses the file, and the server goes on', async () => {
    const r = await cli('compile', ...inputFlags(files.request, file, files.policy));
    expect(r.code).toBe(2);
    const why = 'not Unicode text (a lone surrogate escape in candidates[0].content)';
    expect(r.stderr).toBe(`ctxbench: ${file}: ${why}\n`);
    const refused = [`ctxbench: arguments: candidates: ${why}`];
    const records = { ...args, candidates: pool };
    const calls: [string, Record<string, unknown>][] = [
      ['compile', records],
      ['explain', { ...records, candidate: first.candidate_id }],
      ['validate', { ...records, compilation: { result: {} } }],
    ];
    for (const [name, a] of calls) {
      const m = await client.callTool({ name, arguments: a });
      expect([m.isError, texts(m)], name).toEqual([true, refused]);
    }
    // A whole pair written as two escapes is one character, and compiles.
    first.content = 'fine \ud83d\ude00 pair';
    const ok = await client.callTool({ name: 'compile', arguments: { ...args, candidates: pool } });
    first.content = 'bad \ud800 half';
    expect(ok.isError, texts(ok).join('\n')).not.toBe(true);
  });

  it("is refused in pack's task and in an argument's key, naming the argument", async () => {
    const task = await client.callTool({
      name: 'pack',
      arguments: { dir: '.', task: 'fix \udc00 login', budget: 500 },
    });
    expect([task.isError, texts(task)]).toEqual([
      true,
      ['ctxbench: arguments: task: not Unicode text (a lone surrogate escape in the document)'],
    ]);
    const key = await client.callTool({
      name: 'compile',
      arguments: { ...args, request: { ...args.request, 'x\udbff': 1 } },
    });
    expect([key.isError, texts(key)]).toEqual([
      true,
      ['ctxbench: arguments: request: not Unicode text (a lone surrogate escape in a key of the document)'],
    ]);
  });

  it('is one problem for check, as ctxbench check counts the file', async () => {
    const r = await cli('check', '--json', file);
    expect(r.code).toBe(1);
    const [finding] = JSON.parse(r.stdout) as { message: string }[];
    const m = await client.callTool({ name: 'check', arguments: { candidates: pool } });
    expect(m.isError).not.toBe(true);
    expect(JSON.parse(texts(m)[0] as string)).toEqual([
      { severity: 'error', file: 'arguments', record: 'candidates', field: null, message: finding?.message },
    ]);
    expect(texts(m)[1]).toBe('check: 1 problem, 0 warnings');
  });
});
