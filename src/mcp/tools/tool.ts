/**
 * What the server's tools share: the shape of a tool, their results (the text a command prints, or
 * an error line), the input schemas made of the shipped JSON Schemas when the server starts, and
 * the compile session a compiling tool's call opens. One tool a file beside this one (issue 48).
 */
import fs from 'node:fs';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { UsageError } from '../../harness/errors.js';
import type { WarmHosts } from '../../harness/hosts/index.js';
import { fromRoot } from '../../harness/paths.js';
import { type CompileSession, withSession } from '../../harness/session/index.js';

/** The strategy a call uses when it names none: the one that refuses only with a proof. */
export const DEFAULT_STRATEGY = 'compiler-v2';

/** What `ctxbench mcp` is started with. */
export interface McpOptions {
  /** Per compilation, in milliseconds, for a strategy in a process of its own. */
  readonly timeout: number;
  /** The folders `pack` may read, resolved (`rootsOf`). */
  readonly roots: readonly string[];
}

export type Args = Readonly<Record<string, unknown>>;
export type Schema = Record<string, unknown>;

export interface Tool {
  readonly name: string;
  readonly description: string;
  /** Its input schema, made once when the server starts. */
  readonly schema: () => Schema;
  /** `warm`: the runner's strategy processes, kept from call to call (a compiling tool's). */
  readonly run: (args: Args, o: McpOptions, warm?: WarmHosts) => Promise<CallToolResult>;
}

export const schema = (name: string): Schema => {
  const {
    $schema: _s,
    title: _t,
    ...rest
  } = JSON.parse(fs.readFileSync(fromRoot('schemas', `${name}.schema.json`), 'utf8')) as Schema;
  return rest;
};

export const text = (...parts: string[]): CallToolResult => ({
  content: parts.map((t) => ({ type: 'text' as const, text: t })),
});
export const failed = (line: string): CallToolResult => ({
  isError: true,
  content: [{ type: 'text', text: line }],
});

/** An object's schema: its properties, those required, and the definitions they refer to. */
export const object = (properties: Schema, required: readonly string[] = [], $defs?: unknown): Schema => ({
  type: 'object',
  properties,
  ...(required.length > 0 ? { required: [...required] } : {}),
  ...($defs === undefined ? {} : { $defs }),
});

/** The records the CLI reads, made of the shipped schemas; the pool's definitions for the root. */
export function recordsSchema(): { properties: Schema; $defs: unknown } {
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

export const STRATEGY = {
  type: 'string',
  description: `a registered strategy (default ${DEFAULT_STRATEGY})`,
};

/** A compiling tool's arguments: the records, a budget and a strategy, and `extra`. */
export function compilingSchema(extra: Schema = {}, required: readonly string[] = []): Schema {
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

export const CERTIFY = {
  type: 'boolean',
  description:
    'prove the bundle optimal (default false: compiler-v2 answers at once, with how far from the optimum it may be in extras.within_percent)',
};

/** The call's `certify`: false when absent. */
export function certifyOf(args: Args): boolean {
  if (args.certify !== undefined && typeof args.certify !== 'boolean')
    throw new UsageError('certify must be true or false');
  return args.certify === true;
}

/** The call's strategy: the one named, or the default. */
export function nameOf(strategy: unknown): string {
  if (strategy === undefined) return DEFAULT_STRATEGY;
  if (typeof strategy !== 'string') throw new UsageError('strategy is not a name');
  return strategy;
}

/**
 * The call's session: its strategy and budget, its process taken from `warm`, closed whatever
 * happens (the harness's `withSession` with a call's arguments).
 */
export async function callSession<T>(
  args: Args,
  o: McpOptions,
  warm: WarmHosts | undefined,
  use: (s: CompileSession) => Promise<T>,
  anytime = false,
): Promise<T> {
  const strategy = nameOf(args.strategy);
  const budget = args.budget;
  if (budget !== undefined && typeof budget !== 'number')
    throw new UsageError('budget must be a whole number of tokens >= 0');
  return withSession(
    { strategy, timeout: o.timeout, budget, policy: (p) => p, lint: { strict: false }, warm, anytime },
    use,
  );
}

/** The records of a call as a `compile --batch` line holds them. */
export const records = (args: Args) => ({
  request: args.request,
  candidates: args.candidates,
  policy: args.policy ?? {},
});
