import { UsageError } from '../../harness/errors.js';
import { leftOut, PACK_FORMATS, type PackFormat, packPool, renderPack } from '../../harness/ingest/index.js';
import { CompileSession } from '../../harness/run/index.js';
import type { Compiled } from '../../harness/types.js';
import { defineCommand, lintOf, splitList, timeoutOf, timeoutOption } from '../command.js';
import { EXIT } from '../io.js';

interface TraceEntry {
  readonly candidate_id: string;
  readonly decision: string;
  readonly reason_detail?: string;
}

const entriesOf = (c: Compiled): readonly TraceEntry[] =>
  c.outcome === 'error'
    ? []
    : (((c.result as { trace?: { entries?: TraceEntry[] } }).trace?.entries ?? []) as TraceEntry[]);

/**
 * The context for one task under one budget, from a working tree: the same pool `ingest` builds,
 * compiled by `compiler-v2` (or `--strategy`), printed as Markdown, XML or JSON; on stderr what was
 * left out and why. A refusal is a result (exit 0): it is printed on stderr with the least budget
 * the strategy needs, found by compiling again.
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
      .option('require', {
        type: 'string',
        describe: 'files that must be in the bundle (comma-separated paths)',
      })
      .option('include', { type: 'string', describe: 'only paths matching these globs (comma-separated)' })
      .option('exclude', {
        type: 'string',
        describe: 'leave out paths matching these globs (comma-separated)',
      })
      .option('max-bytes', { type: 'number', default: 1_000_000, describe: 'skip files larger than this' })
      .option('quiet', { type: 'boolean', default: false, describe: 'nothing on stderr but errors' })
      .option('timeout', timeoutOption),
  run: async (a, { io }) => {
    if (!Number.isSafeInteger(a.budget) || a.budget < 0)
      throw new UsageError('--budget must be a whole number of tokens >= 0');
    if (!Number.isSafeInteger(a.maxBytes) || a.maxBytes < 1)
      throw new UsageError('--max-bytes must be a whole number >= 1');
    const include = splitList(a.include);
    const exclude = splitList(a.exclude);
    const pool = await packPool(a.dir, {
      task: a.task,
      budget: a.budget,
      maxBytes: a.maxBytes,
      require: splitList(a.require) ?? [],
      ...(include === undefined ? {} : { include }),
      ...(exclude === undefined ? {} : { exclude }),
    });
    const session = await CompileSession.open({
      strategy: a.strategy,
      timeout: timeoutOf(a.timeout),
      policy: (p) => p,
      lint: lintOf(false, io),
    });
    try {
      const compileAt = (budget: number) =>
        session.measured(
          {
            request: { ...pool.request, usable_token_budget: budget },
            candidates: pool.candidates,
            policy: pool.policy,
          },
          `pack@${budget}`,
        );
      const out = await compileAt(a.budget);
      const note = (line: string) => {
        if (!a.quiet) io.err(`${line}\n`);
      };
      const skipped = Object.entries(pool.skipped).map(([k, n]) => `${k} ${n}`);
      note(
        `pack: ${pool.files} files in the pool${skipped.length > 0 ? `; skipped: ${skipped.join(', ')}` : ''}`,
      );
      if (out.outcome === 'error') {
        io.err(`ctxbench: ${session.strategy.name} failed: ${out.message}\n`);
        return EXIT.checkFailed;
      }
      if (out.outcome === 'refusal') {
        const failure = (out.result as { failure?: { diagnostic?: string; blocking_ids?: string[] } })
          .failure;
        io.err(
          `pack: ${session.strategy.name} refused: ${out.reason}${failure?.diagnostic ? `: ${failure.diagnostic}` : ''}` +
            `${failure?.blocking_ids?.length ? ` (blocking ${failure.blocking_ids.join(', ')})` : ''}\n`,
        );
        const need = await leastBudget(
          compileAt,
          a.budget,
          pool.candidates.reduce((n, c) => n + c.token_count, 0),
        );
        io.err(
          need === null
            ? 'pack: no budget up to the whole pool gives a bundle\n'
            : `pack: a budget of ${need} tokens gives a bundle\n`,
        );
        if (a.format === 'json')
          io.out(
            `${JSON.stringify({ refusal: out.reason, result: out.result, least_budget: need }, null, 2)}\n`,
          );
        return EXIT.ok;
      }
      io.out(
        renderPack(
          {
            task: a.task,
            budget: a.budget,
            renderedTokens: out.renderedTokens,
            bundleHash: out.record.bundle_hash ?? '',
            strategy: session.strategy.name,
            items: out.live,
          },
          a.format,
        ),
      );
      note(`pack: ${out.live.length} items, ${out.renderedTokens} of ${a.budget} tokens; left out:`);
      for (const line of leftOut(pool.candidates, entriesOf(out), new Set(out.admitted))) note(`  ${line}`);
      return EXIT.ok;
    } finally {
      session.close();
    }
  },
});

/**
 * The least budget above `refused` at which the strategy returns a bundle, by bisection up to
 * `ceiling` plus room for the rendering (a bounded number of compilations, no clock); null when
 * even that refuses. Bisection assumes a bundle at one budget means one at any larger, which the
 * compilers keep; for another strategy the answer is a budget that works, not always the least.
 */
async function leastBudget(
  compileAt: (budget: number) => Promise<Compiled>,
  refused: number,
  ceiling: number,
): Promise<number | null> {
  let hi = Math.max(refused + 1, ceiling * 2 + 1000);
  if ((await compileAt(hi)).outcome !== 'bundle') return null;
  let lo = refused;
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if ((await compileAt(mid)).outcome === 'bundle') hi = mid;
    else lo = mid;
  }
  return hi;
}
