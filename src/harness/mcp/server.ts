/**
 * The compiler as a Model Context Protocol server (`ctxbench mcp`): tools an agent calls over
 * stdio, each the CLI's own pipeline on records passed as arguments, and resources an agent reads
 * to write a valid pool. Tool input schemas are built from the shipped JSON Schemas, never a
 * second hand-written copy. Bad input, an unknown strategy or a strategy that fails is a tool
 * result with `isError: true` and the line the CLI would print, never a crash of the server; no
 * state is kept between calls.
 */
import fs from 'node:fs';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  type CallToolResult,
  ListResourcesRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { InputError, UsageError } from '../errors.js';
import { jsonText } from '../output/index.js';
import { fromRoot } from '../paths.js';
import { type Compiled, CompileSession } from '../run/index.js';

/** The strategy `compile` uses when the call names none: the one that refuses only with a proof. */
export const DEFAULT_STRATEGY = 'compiler-v2';
/** What `ctxbench mcp` is started with. */
export interface McpOptions {
  /** Per compilation, in milliseconds, for a strategy in a process of its own. */
  readonly timeout: number;
}

const schema = (name: string): Record<string, unknown> => {
  const {
    $schema: _s,
    title: _t,
    ...rest
  } = JSON.parse(fs.readFileSync(fromRoot('schemas', `${name}.schema.json`), 'utf8')) as Record<
    string,
    unknown
  >;
  return rest;
};

/** `compile`'s arguments: the records the CLI reads, the pool's definitions at the root for its references. */
function compileSchema(): Record<string, unknown> {
  const { oneOf, $defs, description } = schema('candidates');
  return {
    type: 'object',
    properties: {
      candidates: { description, oneOf },
      request: schema('request'),
      policy: schema('policy'),
      budget: {
        type: 'integer',
        minimum: 0,
        description: "tokens in place of the request's usable_token_budget",
      },
      strategy: { type: 'string', description: `a registered strategy (default ${DEFAULT_STRATEGY})` },
    },
    required: ['candidates', 'request'],
    $defs,
  };
}

const TOOLS = () => [
  {
    name: 'compile',
    description:
      "Compile a pool into a bundle for a request, or a named refusal: ctxbench compile's JSON (bundle, result with its trace, rendered text, validation, real token counts), then a one-line summary.",
    inputSchema: compileSchema(),
  },
];

/** The resources: the formats document and every JSON Schema, as files of the package. */
const RESOURCES = (): { uri: string; name: string; mimeType: string; file: string }[] => [
  {
    uri: 'ctxbench://docs/formats.md',
    name: 'formats.md',
    mimeType: 'text/markdown',
    file: fromRoot('docs', 'formats.md'),
  },
  ...fs
    .readdirSync(fromRoot('schemas'))
    .filter((f) => f.endsWith('.schema.json'))
    .sort()
    .map((f) => ({
      uri: `ctxbench://schemas/${f}`,
      name: f,
      mimeType: 'application/schema+json',
      file: fromRoot('schemas', f),
    })),
];

const failed = (text: string): CallToolResult => ({ isError: true, content: [{ type: 'text', text }] });

/** What a compilation came to, in a line: the outcome, and the trace's decisions counted. */
function summaryOf(out: Exclude<Compiled, { error: string }>): string {
  const result = out.result as {
    failure?: { reason?: string } | null;
    trace?: { entries?: { decision?: string }[] };
  };
  const counts = new Map<string, number>();
  for (const e of result.trace?.entries ?? [])
    counts.set(String(e.decision), (counts.get(String(e.decision)) ?? 0) + 1);
  const decisions = [...counts].map(([d, n]) => `${n} ${d}`).join(', ');
  const outcome =
    out.bundle === null
      ? `refused: ${result.failure?.reason ?? 'no reason'}`
      : `a bundle of ${(out.bundle as { items: unknown[] }).items.length} items`;
  return `${outcome}; trace: ${decisions || 'no entries'}`;
}

async function compile(args: Record<string, unknown>, o: McpOptions): Promise<CallToolResult> {
  const strategy = args.strategy ?? DEFAULT_STRATEGY;
  if (typeof strategy !== 'string') return failed('ctxbench: strategy is not a name');
  const budget = args.budget;
  if (budget !== undefined && typeof budget !== 'number')
    return failed('ctxbench: --budget must be a whole number of tokens >= 0');
  const session = await CompileSession.open({
    strategy,
    timeout: o.timeout,
    budget,
    policy: (p) => p,
    lint: { strict: false },
  });
  try {
    const out = await session.object('arguments', {
      request: args.request,
      candidates: args.candidates,
      policy: args.policy ?? {},
    });
    if ('error' in out) return failed(`ctxbench: ${out.error}`);
    return {
      content: [
        { type: 'text', text: jsonText(out) },
        { type: 'text', text: summaryOf(out) },
      ],
    };
  } finally {
    session.close();
  }
}

/** One tool call; an error the CLI would print is the call's result, anything else is a bug. */
async function call(
  name: string,
  args: Record<string, unknown>,
  o: McpOptions,
  known: readonly string[],
): Promise<CallToolResult> {
  try {
    if (name === 'compile') return await compile(args, o);
    return failed(`ctxbench: unknown tool "${name}" (tools: ${known.join(', ')})`);
  } catch (e) {
    if (e instanceof InputError) return failed(`ctxbench: ${e.line}`);
    if (e instanceof UsageError) return failed(`ctxbench: ${e.message}`);
    throw e;
  }
}

/** The server, not yet connected: `ctxbench mcp` connects it to stdio, tests to their own transport. */
export function mcpServer(version: string, o: McpOptions): Server {
  const server = new Server({ name: 'ctxbench', version }, { capabilities: { tools: {}, resources: {} } });
  // The package's own files, the same for every call: read once, when the server is made.
  const tools = TOOLS();
  const resources = RESOURCES();
  const known = tools.map((t) => t.name);
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools }));
  server.setRequestHandler(CallToolRequestSchema, (r) =>
    call(r.params.name, r.params.arguments ?? {}, o, known),
  );
  server.setRequestHandler(ListResourcesRequestSchema, () => ({
    resources: resources.map(({ file: _f, ...r }) => r),
  }));
  server.setRequestHandler(ReadResourceRequestSchema, (r) => {
    const found = resources.find((x) => x.uri === r.params.uri);
    if (found === undefined) throw new Error(`no resource ${r.params.uri}`);
    return {
      contents: [{ uri: found.uri, mimeType: found.mimeType, text: fs.readFileSync(found.file, 'utf8') }],
    };
  });
  return server;
}
