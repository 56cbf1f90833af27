/** The `pack` tool: the context for one task from a folder of a working tree, as `ctxbench pack` prints it. */
import path from 'node:path';
import { UsageError } from '../../harness/errors.js';
import {
  PACK_FORMATS,
  PACK_ORDERS,
  type PackFormat,
  type PackOrder,
  packContext,
  REQUIRE_MEANING,
} from '../../harness/pack/index.js';
import { servedFolder } from '../permission.js';
import { CERTIFY, certifyOf, failed, nameOf, object, STRATEGY, type Tool, text } from './tool.js';

const stringList = (v: unknown, name: string): string[] | undefined => {
  if (v === undefined) return undefined;
  if (!Array.isArray(v) || !v.every((x) => typeof x === 'string'))
    throw new UsageError(`${name} must be a list of strings`);
  return v;
};

/** Required paths as the CLI takes them, comma-separated in one string, or as a list. */
function requireList(v: unknown): string[] {
  if (v === undefined) return [];
  if (typeof v === 'string')
    return v
      .split(',')
      .map((s) => s.trim())
      .filter((s) => s !== '');
  if (!Array.isArray(v) || !v.every((x) => typeof x === 'string'))
    throw new UsageError('require must be a list of paths, or one string of comma-separated paths');
  return v;
}

export const packTool: Tool = {
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
        order: {
          enum: [...PACK_ORDERS],
          description:
            "the files' order after the task: the likeliest needed first (default relevance), or the tree's (path)",
        },
        require: {
          anyOf: [paths, { type: 'string' }],
          description: `files whose text must be in the bundle, a list or comma-separated: ${REQUIRE_MEANING}`,
        },
        include: { ...paths, description: 'only paths matching these globs' },
        exclude: { ...paths, description: 'leave out paths matching these globs' },
        default_ignores: {
          type: 'boolean',
          description:
            'leave out dependencies, build outputs, caches, minified bundles, lockfiles and binary or media files unless a .gitignore ! rule keeps them (default true)',
        },
        certify: CERTIFY,
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
      throw new UsageError('max_bytes must be a whole number >= 1');
    const format = (args.format ?? 'md') as PackFormat;
    if (!PACK_FORMATS.includes(format))
      throw new UsageError(`format must be one of ${PACK_FORMATS.join(', ')}`);
    if (args.default_ignores !== undefined && typeof args.default_ignores !== 'boolean')
      throw new UsageError('default_ignores must be true or false');
    const order = (args.order ?? 'relevance') as PackOrder;
    if (!PACK_ORDERS.includes(order)) throw new UsageError(`order must be one of ${PACK_ORDERS.join(', ')}`);
    const include = stringList(args.include, 'include');
    const exclude = stringList(args.exclude, 'exclude');
    // A relative folder is the served root's, not the server's working folder: a client starts the
    // server wherever it likes (Claude Desktop in /), and `"."` means the folder it serves.
    const dir = path.resolve(o.roots[0] ?? '.', args.dir);
    const packed = await packContext(servedFolder(dir, o.roots), {
      task: args.task,
      budget: args.budget,
      maxBytes: args.max_bytes ?? 1_000_000,
      defaultIgnores: args.default_ignores !== false,
      require: requireList(args.require),
      ...(include === undefined ? {} : { include }),
      ...(exclude === undefined ? {} : { exclude }),
      strategy: nameOf(args.strategy),
      format,
      order,
      certify: certifyOf(args),
      timeout: o.timeout,
      lint: { strict: false },
    });
    const told = packed.told.map((t) => t.line).join('\n');
    // A refusal gives no context: the client is told so as an error, with the reasons.
    return packed.failed || packed.refused ? failed(told) : text(packed.text, told);
  },
};
