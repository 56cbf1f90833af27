/**
 * `pack` apart from its printing: a working tree's pool for one task compiled by one strategy, and
 * what the command tells about it. The CLI prints it; the MCP server returns it.
 */

import type { Lint } from '../corpus/index.js';
import { UsageError } from '../errors.js';
import { CompileSession, leastBudget } from '../study/index.js';
import { type PackOptions, packPool } from './pack.js';
import { leftOut, type PackFormat, renderPack } from './render.js';

export interface PackRun extends PackOptions {
  readonly strategy: string;
  readonly format: PackFormat;
  /** Per compilation, in milliseconds, for a strategy in a process of its own. */
  readonly timeout: number;
  readonly lint: Lint;
}

/** A line `pack` tells on stderr; `always` ones are told under `--quiet` too. */
export interface Told {
  readonly line: string;
  readonly always: boolean;
}

/** What `pack` comes to: the text for stdout, the lines for stderr, and whether the strategy failed. */
export interface Packed {
  readonly text: string;
  readonly told: readonly Told[];
  readonly failed: boolean;
}

/**
 * The context for one task under one budget, from a working tree. A refusal is a result: it is
 * told with the least budget the strategy needs, found by compiling again.
 */
export async function packContext(dir: string, o: PackRun): Promise<Packed> {
  if (!Number.isSafeInteger(o.budget) || o.budget < 0)
    throw new UsageError('--budget must be a whole number of tokens >= 0');
  if (!Number.isSafeInteger(o.maxBytes) || o.maxBytes < 1)
    throw new UsageError('--max-bytes must be a whole number >= 1');
  const pool = await packPool(dir, o);
  const session = await CompileSession.open({
    strategy: o.strategy,
    timeout: o.timeout,
    policy: (p) => p,
    lint: o.lint,
  });
  const told: Told[] = [];
  const tell = (line: string, always = false) => told.push({ line, always });
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
    const out = await compileAt(o.budget);
    const skipped = Object.entries(pool.skipped).map(([k, n]) => `${k} ${n}`);
    tell(
      `pack: ${pool.files} files in the pool${skipped.length > 0 ? `; skipped: ${skipped.join(', ')}` : ''}`,
    );
    const name = session.strategy.name;
    if (out.outcome === 'error') {
      tell(`ctxbench: ${name} failed: ${out.message}`, true);
      return { text: '', told, failed: true };
    }
    if (out.outcome === 'refusal') {
      const failure = out.record.failure;
      tell(
        `pack: ${name} refused: ${out.reason}${failure?.diagnostic ? `: ${failure.diagnostic}` : ''}` +
          `${failure?.blocking_ids?.length ? ` (blocking ${failure.blocking_ids.join(', ')})` : ''}`,
        true,
      );
      const need = await leastBudget(
        compileAt,
        o.budget,
        pool.candidates.reduce((n, c) => n + c.token_count, 0),
        (c) => c.outcome === 'bundle',
      );
      tell(
        need === null
          ? 'pack: no budget up to the whole pool gives a bundle'
          : `pack: a budget of ${need} tokens gives a bundle`,
        true,
      );
      const text =
        o.format === 'json'
          ? `${JSON.stringify({ refusal: out.reason, result: out.result, least_budget: need }, null, 2)}\n`
          : '';
      return { text, told, failed: false };
    }
    const text = renderPack(
      {
        task: o.task,
        budget: o.budget,
        renderedTokens: out.renderedTokens,
        bundleHash: out.record.bundle_hash ?? '',
        strategy: name,
        items: out.live,
      },
      o.format,
    );
    tell(`pack: ${out.live.length} items, ${out.renderedTokens} of ${o.budget} tokens; left out:`);
    for (const line of leftOut(pool.candidates, out.record.trace.entries, new Set(out.admitted)))
      tell(`  ${line}`);
    return { text, told, failed: false };
  } finally {
    session.close();
  }
}
