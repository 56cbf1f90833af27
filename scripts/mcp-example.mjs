#!/usr/bin/env node
/**
 * The example MCP conversation of docs/mcp.md, made by talking to the built server with the SDK's
 * own Client: every result in it is what the server answered, never typed.
 * `node scripts/mcp-example.mjs` writes it between the page's markers; with `--check` it writes
 * nothing and exits 1 when the page's differs (test/cli/mcp.test.ts runs that).
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const PAGE = path.join(ROOT, 'docs/mcp.md');
const START = '<!-- mcp-example:start (written by node scripts/mcp-example.mjs) -->';
const END = '<!-- mcp-example:end -->';

const CASE = 'dependency-trap';
const corpusFile = (f) => `corpus/compiler-v1/${f}`;
const read = (f) => JSON.parse(fs.readFileSync(path.join(ROOT, corpusFile(f)), 'utf8'));
const records = {
  request: read(`${CASE}.request.json`),
  candidates: read(`${CASE}.candidates.json`),
  policy: read('compiler-policy-v1.json'),
};
/** How the records are shown in a call: by the file they come from. */
const shown = {
  request: `<${corpusFile(`${CASE}.request.json`)}>`,
  candidates: `<${corpusFile(`${CASE}.candidates.json`)}>`,
  policy: `<${corpusFile('compiler-policy-v1.json')}>`,
};

const texts = (r) => r.content.map((c) => c.text);
const quoted = (lines) => ['```text', ...lines, '```'];

/** One exchange: the call as the agent makes it, then what came back, trimmed to `pick`. */
async function exchange(client, tool, args, display, pick) {
  const r = await client.callTool({ name: tool, arguments: args });
  return [
    `**→ \`${tool}\`** \`${JSON.stringify(display).replaceAll('"<', '<').replaceAll('>"', '>')}\``,
    '',
    `**←**${r.isError ? ' (`isError: true`)' : ''}`,
    '',
    ...quoted(pick(texts(r))),
    '',
  ];
}

/** The conversation, as Markdown. */
async function conversation(bin = path.join(ROOT, 'bin/ctxbench.js')) {
  const client = new Client({ name: 'mcp-example', version: '0' });
  await client.connect(
    new StdioClientTransport({ command: process.execPath, args: [bin, 'mcp'], stderr: 'pipe' }),
  );
  try {
    const { tools } = await client.listTools();
    const budget = 900;
    const compiled = (t) => {
      const out = JSON.parse(t[0]);
      return [
        `${t[0].length} bytes of ctxbench compile's JSON; its bundle: ${out.bundle.items.map((i) => i.id).join(', ')}`,
        `real tokens: ${JSON.stringify(out.real_tokens)}`,
        t[1],
      ];
    };
    return [
      `**→ \`tools/list\`**`,
      '',
      '**←**',
      '',
      ...quoted([tools.map((t) => t.name).join(', ')]),
      '',
      ...(await exchange(client, 'compile', { ...records, budget }, { ...shown, budget }, compiled)),
      ...(await exchange(
        client,
        'explain',
        { ...records, budget, candidate: 'ref-cheap' },
        { ...shown, budget, candidate: 'ref-cheap' },
        (t) => [t[1]],
      )),
      ...(await exchange(client, 'compile', { ...records, budget: -1 }, { ...shown, budget: -1 }, (t) => t)),
      ...(await exchange(
        client,
        'check',
        { candidates: [{ candidate_id: 'draft', content: 'x', token_count: -3 }] },
        { candidates: [{ candidate_id: 'draft', content: 'x', token_count: -3 }] },
        (t) => [
          ...JSON.parse(t[0])
            .slice(0, 3)
            .map((f) => `${f.record}: ${f.message}`),
          '...',
          t[1],
        ],
      )),
    ]
      .join('\n')
      .trimEnd();
  } finally {
    await client.close();
  }
}

/** The page with `body` between the markers. */
function withConversation(page, body) {
  const start = page.indexOf(START);
  const end = page.indexOf(END);
  if (start < 0 || end < start) throw new Error(`${PAGE}: no ${START} ... ${END}`);
  return `${page.slice(0, start + START.length)}\n\n${body}\n\n${page.slice(end)}`;
}

const page = fs.readFileSync(PAGE, 'utf8');
const made = withConversation(page, await conversation());
if (process.argv.includes('--check')) {
  if (made !== page) {
    console.error(`mcp-example: ${PAGE}'s example conversation is stale: run node scripts/mcp-example.mjs`);
    process.exit(1);
  }
} else {
  fs.writeFileSync(PAGE, made);
  console.log(`mcp-example: ${PAGE} written`);
}
