/**
 * Each tool of `ctxbench mcp` against the CLI command it serves, over stdio with the SDK's own
 * Client: the same records give the same bytes (`validate`, `check`, `pack`), and `explain`'s
 * account of a candidate is the trace `compile` writes, with a least budget that `compile` confirms.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runs } from '../helpers/arbitrary.js';
import { cli } from '../helpers/cli.js';
import { ROOT } from '../helpers/corpus.js';
import { MAX_BYTES, makeProject } from '../helpers/ingest-fixture.js';
import { BIN, mcpClient, referenceCase, texts } from '../helpers/mcp.js';
import { sharedProject } from '../helpers/project.js';
import { tempDir } from '../helpers/temp.js';

const tmp = fs.realpathSync(tempDir('mcp-tools'));

let client: Client;
beforeAll(async () => {
  // pack's working tree is made in this file's folder: the server serves it.
  ({ client } = await mcpClient(BIN, ['--root', tmp]));
});
afterAll(async () => {
  await client.close();
});

type Json = Record<string, unknown>;
interface Entry {
  readonly candidate_id: string;
  readonly decision: string;
}

/** `ctxbench compile` of a reference case at a budget, by a strategy: its output object. */
async function compiled(name: string, budget: number, strategy = 'compiler-v2'): Promise<Json> {
  const { files } = referenceCase(name);
  const out = path.join(tmp, `${name}-${budget}-${strategy}.json`);
  const r = await cli(
    'compile',
    ...['--request', files.request, '--candidates', files.candidates, '--policy', files.policy],
    ...['--budget', String(budget), '--strategy', strategy, '--output', out],
  );
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(fs.readFileSync(out, 'utf8')) as Json;
}
const admittedBy = (c: Json): string[] =>
  c.bundle === null ? [] : (c.bundle as { items: { id: string }[] }).items.map((i) => i.id);
const entriesOf = (c: Json): Entry[] => (c.result as { trace: { entries: Entry[] } }).trace.entries;

describe('the MCP tools', () => {
  it('lists the five tools, the compiling ones taking the shipped schemas', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(['compile', 'explain', 'validate', 'check', 'pack']);
    const {
      $schema: _s,
      title: _t,
      ...request
    } = JSON.parse(fs.readFileSync(path.join(ROOT, 'schemas/request.schema.json'), 'utf8'));
    for (const t of tools.filter((x) => x.name !== 'pack'))
      expect(t.inputSchema.properties?.request, t.name).toEqual(request);
    // None writes anything: a client may call them without asking its user.
    for (const t of tools)
      expect(t.annotations, t.name).toMatchObject({ readOnlyHint: true, destructiveHint: false });
    const explain = tools.find((t) => t.name === 'explain');
    expect(explain?.inputSchema.required).toEqual(['candidates', 'request', 'candidate']);
  });

  it("explain: each candidate's decision is compile's trace, and its least budget is one compile confirms", async () => {
    // One case in the fast tier, four under test:full.
    const cases = (
      [
        ['dependency-trap', 900],
        ['mandatory-overflow', 4400],
        ['budget-slack', 600],
        ['heterogeneous-basic', 900],
      ] as [string, number][]
    ).slice(0, runs(1, 4));
    let confirmed = 0;
    for (const [name, budget] of cases) {
      const { args } = referenceCase(name);
      const out = await compiled(name, budget);
      const pool = (args.candidates as { candidates: { candidate_id: string }[] }).candidates;
      for (const { candidate_id: id } of pool) {
        const r = await client.callTool({ name: 'explain', arguments: { ...args, budget, candidate: id } });
        expect(r.isError, texts(r).join('\n')).not.toBe(true);
        const e = JSON.parse(texts(r)[0] as string) as Json;
        const at = `${name}@${budget} ${id}`;
        expect(e.admitted, at).toBe(admittedBy(out).includes(id));
        expect(e.entry, at).toEqual(entriesOf(out).find((x) => x.candidate_id === id) ?? null);
        if (typeof e.least_budget !== 'number') continue;
        // The least: compile admits it there, and not one token below.
        expect(admittedBy(await compiled(name, e.least_budget)), at).toContain(id);
        expect(admittedBy(await compiled(name, e.least_budget - 1)), at).not.toContain(id);
        confirmed++;
      }
    }
    expect(confirmed).toBeGreaterThan(0);
  });

  it('explain: the JSON ctxbench explain --json prints, byte for byte', async () => {
    for (const [name, budget, id] of [
      ['dependency-trap', 900, 'ref-cheap'],
      ['heterogeneous-basic', 900, 'scope-bad'],
      ['mandatory-overflow', 4400, 'mand-a'],
    ] as const) {
      const { files, args } = referenceCase(name);
      const c = await cli(
        'explain',
        ...['--request', files.request, '--candidates', files.candidates, '--policy', files.policy],
        ...['--budget', String(budget), '--candidate', id, '--json'],
      );
      expect(c.code, c.stderr).toBe(0);
      const r = await client.callTool({ name: 'explain', arguments: { ...args, budget, candidate: id } });
      expect(texts(r)[0], `${name} ${id}`).toBe(c.stdout);
    }
  });

  it('explain: a candidate a gate keeps out is not compiled again; an unknown id is a tool error', async () => {
    const { args } = referenceCase('heterogeneous-basic');
    const r = await client.callTool({ name: 'explain', arguments: { ...args, candidate: 'scope-bad' } });
    const e = JSON.parse(texts(r)[0] as string) as Json;
    expect(e.admitted).toBe(false);
    expect((e.entry as Entry).decision).toBe('REJECTED_HARD');
    expect([e.least_budget, e.if_required]).toEqual([null, null]);
    expect(String(e.why)).toMatch(/scope gate/);
    const unknown = await client.callTool({ name: 'explain', arguments: { ...args, candidate: 'nope' } });
    expect(unknown.isError).toBe(true);
    expect(texts(unknown)).toEqual(['ctxbench: no candidate "nope" in the pool']);
  });

  it('validate: what ctxbench validate prints, for a compilation, a forged one, and forged extras the exact engine decides', async () => {
    const { files, args } = referenceCase('dependency-trap');
    const request = { ...args.request, usable_token_budget: 1400 };
    fs.writeFileSync(path.join(tmp, 'r1400.json'), JSON.stringify(request));
    const good = await compiled('dependency-trap', 1400);
    const items = (good.bundle as { items: { content: string }[] }).items;
    const forged = {
      ...good,
      bundle: { ...(good.bundle as Json), items: [{ ...items[0], content: 'forged' }, ...items.slice(1)] },
    };
    // Extras only the loaded exact engine derives: a check that does not wait for it passes them.
    const exact = await compiled('dependency-trap', 1400, 'exact');
    const extras = exact.extras as { nodes: number };
    const forgedExtras = { ...exact, extras: { ...extras, nodes: extras.nodes + 1 } };
    const seen: string[] = [];
    for (const [label, doc] of [
      ['good', good],
      ['forged', forged],
      ['forged extras', forgedExtras],
    ] as const) {
      const file = path.join(tmp, `${label}.json`);
      fs.writeFileSync(file, JSON.stringify(doc));
      const c = await cli(
        'validate',
        ...['--compilation', file, '--request', path.join(tmp, 'r1400.json')],
        ...['--candidates', files.candidates, '--policy', files.policy],
      );
      const r = await client.callTool({
        name: 'validate',
        arguments: { ...args, request, compilation: doc },
      });
      expect(r.isError, label).not.toBe(true);
      expect(texts(r), label).toEqual([c.stdout]);
      seen.push(c.stdout);
    }
    expect(seen[0]).toBe('valid\n');
    expect(seen[1]).toMatch(/^INVALID /);
    expect(seen[2]).toMatch(/^INVALID .*extras/);
  });

  it('check: the findings check --json gives for the same records', async () => {
    const { args } = referenceCase('dependency-trap');
    const pool = (args.candidates as { candidates: Json[] }).candidates;
    const without = (list: unknown) =>
      (list as Json[]).map(({ file: _f, ...rest }) => JSON.stringify(rest)).sort();
    // A pool alone, two records broken: as `check` reads a lone pool file.
    const broken = [
      { ...pool[0], form_rank: 'high', colour: 'red' },
      { candidate_id: 'bare' },
      ...pool.slice(2),
    ];
    fs.writeFileSync(path.join(tmp, 'broken.candidates.json'), JSON.stringify({ candidates: broken }));
    // Sound records that disagree with each other: as `check` reads them on one batch line.
    const odd = {
      request: { ...args.request, policy_version: 'another-policy' },
      candidates: [{ ...pool[0], order_role: 'preamble' }, ...pool.slice(1)],
      policy: args.policy,
    };
    fs.writeFileSync(path.join(tmp, 'odd.jsonl'), `${JSON.stringify(odd)}\n`);
    for (const [file, given] of [
      ['broken.candidates.json', { candidates: { candidates: broken } }],
      ['odd.jsonl', odd],
    ] as const) {
      const c = await cli('check', path.join(tmp, file), '--json');
      const r = await client.callTool({ name: 'check', arguments: given });
      const found = JSON.parse(texts(r)[0] as string) as Json[];
      expect(found.length, file).toBeGreaterThan(1);
      expect(without(found), file).toEqual(without(JSON.parse(c.stdout)));
      expect(new Set(found.map((f) => f.file))).toEqual(new Set(['arguments']));
    }
    // The batch line and the tool share their checks (lintGiven): what the odd records hold is
    // found, told from the records themselves, not from either output.
    const r = await client.callTool({ name: 'check', arguments: odd });
    const messages = (JSON.parse(texts(r)[0] as string) as Json[]).map((f) => String(f.message));
    expect(messages.some((m) => m.includes('"another-policy"'))).toBe(true);
    expect(messages.some((m) => m.includes('"preamble"'))).toBe(true);
  });

  it("pack: ctxbench pack's stdout and stderr, byte for byte, for a bundle and for a refusal", async () => {
    const tree = path.join(tmp, 'tree');
    makeProject(tree);
    const task = 'Fix clamp so that lo < hi';
    for (const [budget, format] of [
      [3000, 'md'],
      [40, 'json'],
    ] as const) {
      const c = await cli(
        'pack',
        tree,
        ...['--task', task, '--budget', String(budget), '--format', format, '--max-bytes', String(MAX_BYTES)],
      );
      const r = await client.callTool({
        name: 'pack',
        arguments: { dir: tree, task, budget, format, max_bytes: MAX_BYTES },
      });
      if (budget === 40) {
        // A refusal: exit 5 from the CLI, nothing on stdout; a tool error carrying stderr's lines.
        expect([c.code, c.stdout], c.stderr).toEqual([5, '']);
        expect(r.isError).toBe(true);
        expect(texts(r)).toEqual([c.stderr.trimEnd()]);
        continue;
      }
      expect(c.code, c.stderr).toBe(0);
      expect(r.isError, c.stderr).not.toBe(true);
      expect(texts(r), `${budget}`).toEqual([c.stdout, c.stderr.trimEnd()]);
    }
    // An argument of the wrong kind is named, never replaced by its default.
    const wrong: [Record<string, unknown>, string][] = [
      [{ strategy: 42 }, 'ctxbench: strategy is not a name'],
      [{ max_bytes: 'big' }, 'ctxbench: max_bytes must be a whole number >= 1'],
      [{ format: 'pdf' }, 'ctxbench: format must be one of md, xml, json'],
      [{ include: 'src/*' }, 'ctxbench: include must be a list of strings'],
      [
        { task: 'why '.repeat(250_001) },
        'ctxbench: the task has 1,000,004 characters; a task may have at most 1,000,000 (it is whole in the bundle)',
      ],
    ];
    for (const [extra, line] of wrong) {
      const r = await client.callTool({
        name: 'pack',
        arguments: { dir: tree, task, budget: 3000, ...extra },
      });
      expect(r.isError, line).toBe(true);
      expect(texts(r)).toEqual([line]);
    }
  });

  it('pack: require as the CLI takes it, comma-separated, or as a list; errors name arguments, never flags', async () => {
    const tree = path.join(tmp, 'tree-args');
    makeProject(tree);
    const task = 'Fix clamp so that lo < hi';
    const base = { dir: tree, task, budget: 3000, format: 'json', max_bytes: MAX_BYTES };
    const c = await cli(
      'pack',
      tree,
      ...['--task', task, '--budget', '3000', '--format', 'json', '--max-bytes', String(MAX_BYTES)],
      ...['--require', 'src/parser.ts, py/stats.py'],
    );
    expect(c.code, c.stderr).toBe(0);
    for (const require of ['src/parser.ts, py/stats.py', ['src/parser.ts', 'py/stats.py']]) {
      const r = await client.callTool({ name: 'pack', arguments: { ...base, require } });
      expect(r.isError, JSON.stringify(require)).not.toBe(true);
      expect(texts(r)).toEqual([c.stdout, c.stderr.trimEnd()]);
    }
    // Each bad value is named as the tool's argument; the CLI names the same one as its flag.
    const wrong: [Record<string, unknown>, string, string[]][] = [
      [{ budget: -1 }, 'ctxbench: budget must be a whole number of tokens >= 0', ['--budget', '-1']],
      [{ max_bytes: 0 }, 'ctxbench: max_bytes must be a whole number >= 1', ['--max-bytes', '0']],
      [
        { require: 'src/missing.ts' },
        'ctxbench: require: src/missing.ts is not a file of the pool (not found in the folder)',
        ['--require', 'src/missing.ts'],
      ],
      [{ task: '  ' }, 'ctxbench: task: the task is empty', ['--task', '  ']],
      [{ default_ignores: 'no' }, 'ctxbench: default_ignores must be true or false', []],
      [{ order: 'size' }, 'ctxbench: order must be one of relevance, path', []],
      [
        { require: [1] },
        'ctxbench: require must be a list of paths, or one string of comma-separated paths',
        [],
      ],
    ];
    for (const [extra, line, flags] of wrong) {
      const r = await client.callTool({ name: 'pack', arguments: { ...base, ...extra } });
      expect(r.isError, line).toBe(true);
      expect(texts(r)).toEqual([line]);
      if (flags.length === 0) continue;
      const cl = await cli('pack', tree, '--task', task, '--budget', '3000', ...flags);
      expect(cl.code).toBe(2);
      expect(cl.stderr).toContain(`${flags[0]}`);
    }
    const compile = await client.callTool({
      name: 'compile',
      arguments: { ...referenceCase('dependency-trap').args, budget: -1 },
    });
    expect(texts(compile)).toEqual(['ctxbench: budget must be a whole number of tokens >= 0']);
  });

  it('a strategy that fails is a tool error with the line compile prints, and the server goes on', async () => {
    // A plug-in that throws, in the built copy of the project the plug-in tests share.
    const project = sharedProject(tmp);
    expect(project.build.status, project.build.output).toBe(0);
    const { files, args } = referenceCase('dependency-trap');
    const flags = ['--request', files.request, '--candidates', files.candidates, '--policy', files.policy];
    const c = project.bin(['compile', ...flags, '--strategy', 'zz-throw-null']);
    expect(c.status).toBe(1);
    const { client: other } = await mcpClient(path.join(project.dir, 'bin/ctxbench.js'));
    try {
      const r = await other.callTool({ name: 'compile', arguments: { ...args, strategy: 'zz-throw-null' } });
      expect(r.isError).toBe(true);
      expect(texts(r)).toEqual([c.stderr.trimEnd()]);
      const ok = await other.callTool({ name: 'compile', arguments: args });
      expect(ok.isError).not.toBe(true);
    } finally {
      await other.close();
    }
  });
});
