import {
  cacheDirOf,
  PACK_FORMATS,
  PACK_ORDERS,
  type PackFormat,
  type PackOrder,
  packContext,
  REQUIRE_MEANING,
} from '../../harness/pack/index.js';
import { defineCommand, lintOf, splitList, timeoutOf, timeoutOption } from '../command.js';
import { EXIT } from '../io.js';

/**
 * The context for one task under one budget, from a working tree: the same pool `ingest` builds,
 * compiled by `compiler-v2` (or `--strategy`), printed as Markdown, XML or JSON; on stderr what was
 * left out and why. A refusal prints nothing on stdout and exits 5: a shell must not take an empty
 * context for one; stderr says why, with the least budget the strategy needs, found by compiling
 * again.
 */
export const packCommand = defineCommand({
  examples: [
    ['$0 pack . --task "fix the flaky retry test" --budget 16000', 'the context for that task, as Markdown'],
    [
      '$0 pack src --task "add a --dry-run flag" --budget 8000 --require src/cli/main.ts --format xml',
      'with one file required, as XML',
    ],
  ],
  options: (y) =>
    y
      .positional('dir', {
        type: 'string',
        demandOption: true,
        describe: 'the folder to pack (a working tree)',
      })
      .option('task', { type: 'string', demandOption: true, describe: 'what the context is for' })
      .option('budget', {
        type: 'number',
        demandOption: true,
        describe: 'tokens (o200k) the bundle may take',
      })
      .option('strategy', { type: 'string', default: 'compiler-v2', describe: 'the strategy that assembles' })
      .option('format', {
        choices: PACK_FORMATS,
        default: 'md' as PackFormat,
        describe: 'how to print the bundle',
      })
      .option('order', {
        choices: PACK_ORDERS,
        default: 'relevance' as PackOrder,
        describe: "the files' order after the task: the likeliest needed first, or the tree's",
      })
      .option('require', {
        type: 'string',
        describe: `files whose text must be in the bundle (comma-separated paths): ${REQUIRE_MEANING}`,
      })
      .option('include', { type: 'string', describe: 'only paths matching these globs (comma-separated)' })
      .option('exclude', {
        type: 'string',
        describe: 'leave out paths matching these globs (comma-separated)',
      })
      .option('max-bytes', { type: 'number', default: 1_000_000, describe: 'skip files larger than this' })
      .option('default-ignores', {
        type: 'boolean',
        default: true,
        describe:
          'leave out dependencies, build outputs, caches, minified bundles, lockfiles and binary or media files unless a .gitignore ! rule keeps them; --no-default-ignores packs them',
      })
      .option('cache', {
        type: 'string',
        describe:
          'where counts and outlines are kept for the next pack (default $CTXBENCH_CACHE, else $XDG_CACHE_HOME/ctxbench or ~/.cache/ctxbench; CTXBENCH_CACHE=off for none); --no-cache reads and writes none',
      })
      .option('certify', { type: 'boolean', default: false, describe: 'prove the optimum, as a study does' })
      .option('quiet', { type: 'boolean', default: false, describe: 'nothing on stderr but errors' })
      .option('timeout', timeoutOption),
  run: async (a, { io }) => {
    const include = splitList(a.include);
    const exclude = splitList(a.exclude);
    const packed = await packContext(a.dir, {
      task: a.task,
      budget: a.budget,
      maxBytes: a.maxBytes,
      defaultIgnores: a.defaultIgnores,
      require: splitList(a.require) ?? [],
      ...(include === undefined ? {} : { include }),
      ...(exclude === undefined ? {} : { exclude }),
      strategy: a.strategy,
      format: a.format,
      order: a.order,
      certify: a.certify,
      timeout: timeoutOf(a.timeout),
      lint: lintOf(false, io),
      // `--no-cache` comes as false.
      cache: cacheDirOf((a.cache as string | boolean | undefined) === false ? false : a.cache),
    });
    io.out(packed.text);
    for (const t of packed.told) if (t.always || !a.quiet) io.err(`${t.line}\n`);
    return packed.failed ? EXIT.checkFailed : packed.refused ? EXIT.refused : EXIT.ok;
  },
});
