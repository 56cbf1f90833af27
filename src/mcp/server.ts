/**
 * The compiler as a Model Context Protocol server (`ctxbench mcp`): tools an agent calls over
 * stdio, each the CLI's own pipeline on records passed as arguments, and resources an agent reads
 * to write a valid pool. Tool input schemas are built from the shipped JSON Schemas, never a
 * second hand-written copy. Bad input, an unknown strategy or a strategy that fails is a tool
 * result with `isError: true` and the line the CLI would print, never a crash of the server; a call
 * runs in a process of its own, stopped at its timeout (runners.ts); nothing of a call is kept for
 * the next (a shipped strategy's process stays loaded, warm-hosts.ts, each call's inputs sent afresh).
 */
import fs from 'node:fs';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ListResourcesRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { loneSurrogate, MAX_NESTING, tooDeep } from '../harness/corpus/index.js';
import { InputError } from '../harness/errors.js';
import { fromRoot } from '../harness/paths.js';
import { Runners } from './runners.js';
import { failed, type McpOptions, TOOLS } from './tools/index.js';
import { DEFAULT_MAX_MESSAGE } from './transport.js';

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

/** A message's size in bytes, as its transport tells it (the header an HTTP transport gives). */
const sizeOf = (info: { headers: Record<string, unknown> } | undefined): number => {
  const n = Number(info?.headers['content-length']);
  return Number.isSafeInteger(n) && n >= 0 ? n : 0;
};

/** What a client may tell its model about the server as a whole. */
const INSTRUCTIONS =
  'ctxbench decides what goes into a bounded context window. Write a pool of candidates and a request (the formats are in the resource ctxbench://docs/formats.md, the JSON Schemas under ctxbench://schemas/), check them with `check`, then `compile` them into a bundle or a named refusal; `explain` tells why a candidate is in or out and what would admit it; `pack` gives the context for a task from a folder the server serves.';

/**
 * Every tool only reads: the records it is given, or a folder for `pack`. The same arguments give
 * the same result, and nothing outside the machine is reached.
 */
const HINTS = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };

/**
 * The first argument the CLI would refuse were it a file, as that file's error named by the
 * argument; or undefined. Each argument is a document, held to the bound on a file's nesting
 * (here, before a runner is handed it, since handing it over walks it with the call stack), and
 * to Unicode text: JSON may escape half a surrogate pair, which a file is refused for and which
 * has no UTF-8 bytes to count or hash. `check` reports the second as `ctxbench check` reports
 * such a file: a problem among its findings (check-tool.ts).
 */
function refusedArgument(tool: string, args: Record<string, unknown>): InputError | undefined {
  const deep = Object.keys(args).find((k) => tooDeep(args[k]));
  if (deep !== undefined)
    return new InputError('arguments', `nested deeper than ${MAX_NESTING} levels`, deep);
  if (tool === 'check') return undefined;
  for (const [key, value] of Object.entries(args)) {
    const lone = loneSurrogate(value);
    if (lone !== null) return new InputError('arguments', lone, key);
  }
  // Only an argument's name is left to hold one ("a key of the document"): the names alone are
  // walked, the values having been walked above.
  const lone = loneSurrogate(Object.fromEntries(Object.keys(args).map((k) => [k, null])));
  return lone === null ? undefined : new InputError('arguments', lone);
}

/**
 * The server, not yet connected: `ctxbench mcp` connects it to stdio (transport.ts). Its tool calls
 * run in runners (runners.ts), all stopped when the server closes; `maxMessage` is the transport's
 * limit, which bounds what the calls waiting for a runner may hold.
 */
export function mcpServer(version: string, o: McpOptions, maxMessage = DEFAULT_MAX_MESSAGE): Server {
  const server = new Server(
    { name: 'ctxbench', version },
    { capabilities: { tools: {}, resources: {} }, instructions: INSTRUCTIONS },
  );
  // The package's own files, the same for every call: read once, when the server is made.
  const listed = TOOLS.map(({ name, description, schema }) => ({
    name,
    description,
    inputSchema: schema(),
    annotations: HINTS,
  }));
  const resources = RESOURCES();
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: listed }));
  const runners = new Runners(o, maxMessage);
  server.onclose = () => runners.close();
  server.setRequestHandler(CallToolRequestSchema, (r, extra) => {
    const args = r.params.arguments ?? {};
    const refused = refusedArgument(r.params.name, args);
    if (refused !== undefined) return failed(`ctxbench: ${refused.line}`);
    return runners.call(r.params.name, args, sizeOf(extra.requestInfo), extra.signal);
  });
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
