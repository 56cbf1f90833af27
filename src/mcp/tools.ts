/**
 * The server's tools: each one the CLI command of the same name on records passed as arguments,
 * its result the text that command prints (its JSON where it has one), then a line for a reader.
 * Input schemas are made of the shipped JSON Schemas when the server starts.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { validateDocumentAwaited, validationText } from '../harness/audit/index.js';
import { findingsJSON, lintGiven, tally } from '../harness/corpus/index.js';
import { UsageError } from '../harness/errors.js';
import { count } from '../harness/format.js';
import { PACK_FORMATS, type PackFormat, packContext, REQUIRE_MEANING } from '../harness/ingest/index.js';
import { jsonText } from '../harness/output/index.js';
import { fromRoot } from '../harness/paths.js';
import {
  type CompileSession,
  checkedInputs,
  compiledSummary,
  explainCandidate,
  type WarmHosts,
  withSession as withOpened,
} from '../harness/study/index.js';
import { servedFolder } from './permission.js';

/** The strategy a call uses when it names none: the one that refuses only with a proof. */
export const DEFAULT_STRATEGY = 'compiler-v2';

/** What `ctxbench mcp` is started with. */
export interface McpOptions {
  /** Per compilation, in milliseconds, for a strategy in a process of its own. */
  readonly timeout: number;
  /** The folders `pack` may read, resolved (`rootsOf`). */
  readonly roots: readonly string[];
}

type Args = Readonly<Record<string, unknown>>;
type Schema = Record<string, unknown>;

export interface Tool {
  readonly name: string;
  readonly description: string;
  /** Its input schema, made once when the server starts. */
  readonly schema: () => Schema;
  /** `warm`: the runner's strategy processes, kept from call to call (a compiling tool's). */
  readonly run: (args: Args, o: McpOptions, warm?: WarmHosts) => Promise<CallToolResult>;
}

const schema = (name: string): Schema => {
  const {
    $schema: _s,
    title: _t,
    ...rest
  } = JSON.parse(fs.readFileSync(fromRoot('schemas', `${name}.schema.json`), 'utf8')) as Schema;
  return rest;
};

const text = (...parts: string[]): CallToolResult => ({
  content: parts.map((t) => ({ type: 'text' as const, text: t })),
});
export const failed = (line: string): CallToolResult => ({
  isError: true,
  content: [{ type: 'text', text: line }],
});

/** An object's schema: its properties, those required, and the definitions they refer to. */
const object = (properties: Schema, required: readonly string[] = [], $defs?: unknown): Schema => ({
  type: 'object',
  properties,
  ...(required.length > 0 ? { required: [...required] } : {}),
  ...($defs === undefined ? {} : { $defs }),
});

/** The records the CLI reads, made of the shipped schemas; the pool's definitions for the root. */
function recordsSchema(): { properties: Schema; $defs: unknown } {
  const { oneOf, $defs, description } = schema('candidates');
  return {
    properties: {
      candidates: { description, oneOf },
      request: schema('request'),
      policy: schema('policy'),
    },
    $defs,
  };
}

const STRATEGY = { type: 'string', description: `a registered strategy (default ${DEFAULT_STRATEGY})` };

/** A compiling tool's arguments: the records, a budget and a strategy, and `extra`. */
function compilingSchema(extra: Schema = {}, required: readonly string[] = []): Schema {
  const { properties, $defs } = recordsSchema();
  const budget = {
    type: 'integer',
    minimum: 0,
    description: "tokens in place of the request's usable_token_budget",
  };
  return object(
    { ...properties, budget, strategy: STRATEGY, ...extra },
    ['candidates', 'request', ...required],
    $defs,
  );
}

/** The call's strategy: the one named, or the default. */
function nameOf(strategy: unknown): string {
  if (strategy === undefined) return DEFAULT_STRATEGY;
  if (typeof strategy !== 'string') throw new UsageError('strategy is not a name');
  return strategy;
}

/** A session for the call's strategy and budget, its process taken from `warm`, closed whatever happens. */
async function withSession<T>(
  args: Args,
  o: McpOptions,
  warm: WarmHosts | undefined,
  use: (s: CompileSession) => Promise<T>,
): Promise<T> {
  const strategy = nameOf(args.strategy);
  const budget = args.budget;
  if (budget !== undefined && typeof budget !== 'number')
    throw new UsageError('--budget must be a whole number of tokens >= 0');
  return withOpened(
    { strategy, timeout: o.timeout, budget, policy: (p) => p, lint: { strict: false }, warm },
    use,
  );
}

/** The records of a call as a `compile --batch` line holds them. */
const records = (args: Args) => ({
  request: args.request,
  candidates: args.candidates,
  policy: args.policy ?? {},
});

const compile: Tool = {
  name: 'compile',
  description:
    "Compile a pool into a bundle for a request, or a named refusal: ctxbench compile's JSON (bundle, result with its trace, rendered text, validation, real token counts), then a one-line summary.",
  schema: () => compilingSchema(),
  run: (args, o, warm) =>
    withSession(args, o, warm, async (session) => {
      const out = await session.object('arguments', records(args));
      if ('error' in out) return failed(`ctxbench: ${out.error}`);
      return text(jsonText(out), compiledSummary(out));
    }),
};

const explain: Tool = {
  name: 'explain',
  description:
    'Why one candidate is in or out of the compilation of a pool, in words from the trace, and what would admit it (the gate, another form, a budget found by compiling again, naming it required), as JSON.',
  schema: () =>
    compilingSchema({ candidate: { type: 'string', description: 'the candidate_id to explain' } }, [
      'candidate',
    ]),
  run: (args, o, warm) =>
    withSession(args, o, warm, async (session) => {
      if (typeof args.candidate !== 'string')
        throw new UsageError('explain needs "candidate", a candidate id');
      const e = await explainCandidate(session, session.inputs('arguments', records(args)), args.candidate);
      return text(
        jsonText(e),
        `${e.candidate_id}: ${e.why}. What would admit it: ${e.would_take.join('; ')}.`,
      );
    }),
};

const validate: Tool = {
  name: 'validate',
  description:
    'Check a stored compilation (compile\'s output) against the records it was compiled from: "valid", or one "INVALID rule: problem" line per violation, as ctxbench validate prints.',
  schema: () => {
    const { properties, $defs } = recordsSchema();
    const compilation = {
      type: 'object',
      description: "compile's output: result, bundle and rendered_text, with what else compile writes",
      required: ['result'],
    };
    return object({ compilation, ...properties }, ['compilation', 'candidates', 'request', 'policy'], $defs);
  },
  // Awaited, as the CLI's validate is: an exact or compiler-v2 result's extras are derived too.
  run: async (args) => {
    const inputs = checkedInputs('arguments', records(args), { strict: false });
    const problems = await validateDocumentAwaited('compilation', args.compilation, inputs);
    return text(validationText(problems));
  },
};

const check: Tool = {
  name: 'check',
  description:
    "Every problem and warning of a pool, a request or a policy (any of them, together checked against each other), as the JSON list ctxbench check --json prints (every finding's file is `arguments`, its record the argument's); then a count.",
  schema: () => {
    const { properties, $defs } = recordsSchema();
    return object(
      { ...properties, strict: { type: 'boolean', description: 'warnings count as problems' } },
      [],
      $defs,
    );
  },
  run: (args) => {
    const given = { candidates: args.candidates, request: args.request, policy: args.policy };
    if (Object.values(given).every((v) => v === undefined))
      throw new UsageError('check needs candidates, a request or a policy');
    const t = tally(lintGiven(given, 'arguments'), args.strict === true);
    return Promise.resolve(
      text(
        jsonText(findingsJSON(t.findings)),
        `check: ${count(t.problems, 'problem')}, ${count(t.warnings, 'warning')}`,
      ),
    );
  },
};

const stringList = (v: unknown, name: string): string[] | undefined => {
  if (v === undefined) return undefined;
  if (!Array.isArray(v) || !v.every((x) => typeof x === 'string'))
    throw new UsageError(`${name} must be a list of strings`);
  return v;
};

const pack: Tool = {
  name: 'pack',
  description:
    'The context for one task from a folder of a working tree under a token budget, as ctxbench pack prints it (Markdown, XML or JSON), then what was left out and why; a refusal comes with the least budget that gives a bundle.',
  schema: () => {
    const paths = { type: 'array', items: { type: 'string' } };
    return object(
      {
        dir: {
          type: 'string',
          description:
            'the folder of a working tree to pack, inside a --root; a relative path is read from the first --root',
        },
        task: { type: 'string', description: 'what the context is for' },
        budget: { type: 'integer', minimum: 0, description: 'tokens (o200k) the bundle may take' },
        strategy: STRATEGY,
        format: { enum: [...PACK_FORMATS], description: 'how the bundle is printed (default md)' },
        require: {
          ...paths,
          description: `files whose text must be in the bundle: ${REQUIRE_MEANING}`,
        },
        include: { ...paths, description: 'only paths matching these globs' },
        exclude: { ...paths, description: 'leave out paths matching these globs' },
        max_bytes: {
          type: 'integer',
          minimum: 1,
          description: 'skip files larger than this (default 1000000)',
        },
      },
      ['dir', 'task', 'budget'],
    );
  },
  run: async (args, o) => {
    if (typeof args.dir !== 'string' || typeof args.task !== 'string' || typeof args.budget !== 'number')
      throw new UsageError('pack needs "dir", "task" and "budget"');
    if (args.max_bytes !== undefined && typeof args.max_bytes !== 'number')
      throw new UsageError('--max-bytes must be a whole number >= 1');
    const format = (args.format ?? 'md') as PackFormat;
    if (!PACK_FORMATS.includes(format))
      throw new UsageError(`format must be one of ${PACK_FORMATS.join(', ')}`);
    const include = stringList(args.include, 'include');
    const exclude = stringList(args.exclude, 'exclude');
    // A relative folder is the served root's, not the server's working folder: a client starts the
    // server wherever it likes (Claude Desktop in /), and `"."` means the folder it serves.
    const dir = path.resolve(o.roots[0] ?? '.', args.dir);
    const packed = await packContext(servedFolder(dir, o.roots), {
      task: args.task,
      budget: args.budget,
      maxBytes: args.max_bytes ?? 1_000_000,
      require: stringList(args.require, 'require') ?? [],
      ...(include === undefined ? {} : { include }),
      ...(exclude === undefined ? {} : { exclude }),
      strategy: nameOf(args.strategy),
      format,
      timeout: o.timeout,
      lint: { strict: false },
    });
    const told = packed.told.map((t) => t.line).join('\n');
    // A refusal gives no context: the client is told so as an error, with the reasons.
    return packed.failed || packed.refused ? failed(told) : text(packed.text, told);
  },
};

/** Every tool, in the order a client lists them. */
export const TOOLS: readonly Tool[] = [compile, explain, validate, check, pack];
