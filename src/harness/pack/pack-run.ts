/**
 * `pack` apart from its printing: a working tree's pool for one task compiled by one strategy, and
 * what the command tells about it. The CLI prints it; the MCP server returns it.
 */

import { countTokens, type Lint } from '../corpus/index.js';
import { OptionError, UsageError } from '../errors.js';
import { int } from '../format.js';
import { shownPath, TASK_LIMIT } from '../ingest/index.js';
import { CompileSession, leastBudget, withinOf } from '../session/index.js';
import type { Compiled } from '../types.js';
import { INGESTED_TASK_ID } from '../vocabulary.js';
import { defaultIgnoredLine } from './default-ignores.js';
import { withPackCache } from './pack-cache.js';
import { within } from './pack-cache-folder.js';
import { keyDirOf } from './pack-cache-key.js';
import { frameOf, leftOut, type PackFormat, type PackHead, PricedPool } from './pack-formats.js';
import { type PackOrder, printOrder } from './pack-order.js';
import { type PackOptions, type PackPool, packPool } from './pack-pool.js';
import { type Levels, Requirements } from './pack-require.js';

export interface PackRun extends PackOptions {
  readonly strategy: string;
  readonly format: PackFormat;
  /** The order the files are printed in (pack-order.ts); relevance when absent. */
  readonly order?: PackOrder | undefined;
  /**
   * Prove the bundle optimal (the study's certification) rather than answer at once with how far
   * from the optimum it may be (StrategyInput.anytime).
   */
  readonly certify?: boolean | undefined;
  /** Per compilation, in milliseconds, for a strategy in a process of its own. */
  readonly timeout: number;
  readonly lint: Lint;
  /**
   * The folder of the cache a later pack reuses (pack-cache.ts); absent or null for none, which
   * writes nothing (the MCP server's packs, the tests).
   */
  readonly cache?: string | null | undefined;
}

/** A line `pack` tells on stderr; `always` ones are told under `--quiet` too. */
export interface Told {
  readonly line: string;
  readonly always: boolean;
}

/**
 * What `pack` comes to: the text for stdout, the lines for stderr, whether the strategy failed and
 * whether it refused (no text then).
 */
export interface Packed {
  readonly text: string;
  readonly told: readonly Told[];
  readonly failed: boolean;
  readonly refused: boolean;
}

/**
 * How many times a pack compiles again when its printed text runs over the budget. Each time the
 * room shrinks by at least a token, by the whole excess; one time is what a run over takes in
 * practice (a token across an item's edge).
 */
const REPRINTS = 8;

/**
 * One pack at one printed budget: the compilation (null when the format's frame alone is over the
 * budget, so nothing was compiled), the room it was given, the levels it used, its text and tokens.
 */
interface Try {
  readonly out: Compiled | null;
  readonly room: number;
  readonly levels: Levels;
  readonly text: string;
  readonly tokens: number;
}

/**
 * The context for one task under one budget, from a working tree. The bundle is planned in the
 * tokens of the format it is printed in: each candidate keeps the pool's text, so the format
 * never changes what a strategy reads, and is priced as its item as printed (PricedPool). The
 * head and tail are set aside first, and the printed whole is counted again; when it runs over (a
 * token can span an item's edge), the room shrinks by the excess and the strategy compiles again,
 * a bounded number of times. A refusal is a result, told with the least budget that gives
 * a bundle (every required file in full), found by compiling again; the CLI exits non-zero on it.
 */
export async function packContext(dir: string, o: PackRun): Promise<Packed> {
  if (!Number.isSafeInteger(o.budget) || o.budget < 0)
    throw new OptionError('budget', 'must be a whole number of tokens >= 0');
  if (!Number.isSafeInteger(o.maxBytes) || o.maxBytes < 1)
    throw new OptionError('max-bytes', 'must be a whole number >= 1');
  // Before a file is read or the task counted: the task is whole in the bundle, so one past the
  // bound gives no bundle a model is sent (an MCP client may send 64 MiB of it).
  if (o.task.length > TASK_LIMIT)
    throw new UsageError(
      `the task has ${int(o.task.length)} characters; a task may have at most ${int(TASK_LIMIT)} (it is whole in the bundle)`,
    );
  // The strategy's process starts, loads and waits while this one reads and parses the tree.
  const opening = CompileSession.open({
    strategy: o.strategy,
    timeout: o.timeout,
    policy: (p) => p,
    lint: o.lint,
    // The pack is counted in the corpus tokenizer here, never audited in both vocabularies.
    audited: false,
    // Its compilations price in the corpus tokenizer (pool.ts).
    counts: 'o200k',
  });
  // Told when awaited, below: a problem of the tree is told first, as before.
  opening.catch(() => {});
  // A cache inside the tree packed would change the tree while it is packed, and be packed by the
  // next pack: not used, said in one line. Neither it nor the key's folder is ever listed.
  const asked = o.cache ?? null;
  const inside = asked !== null && within(asked, dir);
  const apart = [keyDirOf(), ...(asked === null ? [] : [asked])];
  return withPackCache(inside ? null : asked, async (cache) => {
    let pool: PackPool;
    try {
      pool = await packPool(dir, { ...o, apart }, cache);
    } catch (e) {
      opening.then(
        (s) => s.close(),
        () => {},
      );
      throw e;
    }
    const session = await opening;
    let packed: Packed;
    try {
      packed = await packWith(session, pool, o);
    } finally {
      session.close();
    }
    // Told even under --quiet: until the folder is mended, every pack counts everything again.
    const refused = inside
      ? `${asked} is inside ${dir}, the folder packed: give one outside it with --cache`
      : cache.refused;
    const told: Told[] =
      refused === null ? [] : [{ line: `pack: not using the cache: ${refused}`, always: true }];
    // Once: the segments are gone after it.
    if (cache.foreign > 0)
      told.push({
        line: `pack: removed ${cache.foreign} segment${cache.foreign === 1 ? '' : 's'} of the cache not signed with your key (damaged, or copied or restored from another machine or account): packed without them`,
        always: false,
      });
    return { ...packed, told: [...told, ...packed.told] };
  });
}

/** The pack of a pool by an open session: its compilations, reprints, refusal and what is told. */
async function packWith(session: CompileSession, pool: PackPool, o: PackRun): Promise<Packed> {
  // The corpus tokenizer: the pool's forms are counted in it (pool.ts).
  const count = (text: string): number => countTokens('o200k', text);
  const priced = new PricedPool(pool.candidates, o.format, count);
  const printed = priced.candidates;
  const required = new Requirements(printed, pool.required);
  const task = printed.find((c) => c.candidate_id === INGESTED_TASK_ID)?.token_count ?? 0;
  const name = session.strategy.name;
  const head = (budget: number, bundleHash: string, within?: number): PackHead => ({
    budget,
    strategy: name,
    bundleHash,
    within,
  });
  // A bundle hash is 64 hex digits, a distance from the optimum at most 100: placeholders as long
  // price the frame before there is a bundle.
  const frameAt = (budget: number) => count(frameOf(head(budget, '0'.repeat(64), 100), o.format));
  const compileAt = (room: number, levels: Levels) =>
    session.measured(
      {
        request: { ...pool.request, usable_token_budget: room },
        candidates: required.pool(levels),
        policy: pool.policy,
        anytime: o.certify !== true,
      },
      // The key names the pool a host holds: the same levels, the same candidates, sent once.
      `pack:${JSON.stringify([...levels])}`,
    );

  /** Pack at a printed `budget`, required files from `levels` down (or held there, `fixed`). */
  const attempt = async (budget: number, levels: Levels, fixed: boolean): Promise<Try> => {
    let room = budget - frameAt(budget);
    // Forms that cannot fit beside the task alone are left before any compilation.
    while (!fixed && required.total(levels) + task > room) {
      const next = required.poorer(levels);
      if (next === null) break;
      levels = next;
    }
    for (let reprints = 0; ; ) {
      if (room < 0) return { out: null, room, levels, text: '', tokens: 0 };
      const out = await compileAt(room, levels);
      const next = fixed ? null : required.poorer(levels);
      if (out.outcome === 'refusal' && out.reason === 'INSUFFICIENT_BUDGET' && next !== null) {
        levels = next;
        continue;
      }
      if (out.outcome !== 'bundle') return { out, room, levels, text: '', tokens: 0 };
      const shown = printOrder(out.live, pool.candidates, out.extras.ranked, o.order ?? 'relevance');
      const text = priced.print(head(budget, out.record.bundle_hash ?? '', withinOf(out.extras)), shown);
      const tokens = count(text);
      if (tokens <= budget) return { out, room, levels, text, tokens };
      if (++reprints > REPRINTS)
        throw new Error(`pack could not print within ${budget} tokens in ${REPRINTS} compilations`);
      room -= tokens - budget;
    }
  };

  const told: Told[] = [];
  const tell = (line: string, always = false) => told.push({ line, always });
  const got = await attempt(o.budget, required.richest(), false);
  const reasons = Object.entries(pool.skipped).map(([k, n]) => `${k} ${int(n)}`);
  const skipped = [
    ...(reasons.length === 0 ? [] : [reasons.join(', ')]),
    ...(pool.defaulted.size === 0 ? [] : [defaultIgnoredLine(pool.defaulted, int)]),
  ];
  tell(
    `pack: ${int(pool.files)} files in the pool${skipped.length > 0 ? `; skipped: ${skipped.join('; ')}` : ''}`,
  );
  const out = got.out;
  if (out?.outcome === 'error') {
    tell(`ctxbench: ${name} failed: ${out.message}`, true);
    return { text: '', told, failed: true, refused: false };
  }
  if (out === null || out.outcome === 'refusal') {
    const frame = frameAt(o.budget);
    if (out === null)
      tell(
        `pack: the ${o.format} format's head and tail take ${frame} tokens, over the budget of ${o.budget}`,
        true,
      );
    else {
      const failure = out.record.failure;
      tell(
        `pack: ${name} refused the ${got.room} tokens the budget of ${o.budget} leaves after the format's ${o.budget - got.room}: ` +
          `${out.reason}${failure?.diagnostic ? `: ${failure.diagnostic}` : ''}` +
          `${failure?.blocking_ids?.length ? ` (blocking ${failure.blocking_ids.join(', ')})` : ''}`,
        true,
      );
    }
    if (required.paths.length > 0) tell(shortOf(o.budget, frame, task, required, got.levels), true);
    const richest = required.richest();
    const need = await leastBudget(
      (b) => attempt(b, richest, true).then((t) => t.out),
      o.budget,
      printed.reduce((n, c) => n + c.token_count, 0),
      (c) => c?.outcome === 'bundle',
    );
    const held = required.paths.length > 0 ? ', every required file in full' : '';
    tell(
      need === null
        ? 'pack: no budget up to the whole pool gives a bundle'
        : `pack: a budget of ${need} tokens gives a bundle${held}`,
      true,
    );
    return { text: '', told, failed: false, refused: true };
  }
  for (const [path, form] of got.levels)
    if (form !== 'full')
      tell(
        `pack: ${shownPath(path)} is required: its full text (${required.cost(path, 'full')} tokens as printed) does not fit, so its ${form} is in (${required.cost(path, form)})`,
        true,
      );
  const left = leftOut(pool.candidates, out.record.trace.entries, new Set(out.admitted));
  // Said only when something was: a bare `left out:` would read as a list cut short.
  const within = withinOf(out.extras);
  tell(
    `pack: ${out.live.length} items, ${got.tokens} of ${o.budget} tokens as printed (${o.format})${within === undefined ? '' : `, within ${within}% of the optimum`}${left.length > 0 ? '; left out:' : ''}`,
  );
  for (const line of left) tell(`  ${line}`);
  return { text: got.text, told, failed: false, refused: false };
}

/**
 * Why the required files cannot be held, in figures that add up to the budget: the format's head
 * and tail, the task, and what is left, against what the required files take in the forms tried
 * last (the poorest their requirements accept).
 */
function shortOf(
  budget: number,
  frame: number,
  task: number,
  required: Requirements,
  levels: Levels,
): string {
  const forms = [...levels].map(([p, f]) => `${shownPath(p)} ${f} ${required.cost(p, f)}`);
  const left = budget - frame - task;
  return (
    `pack: the budget of ${budget} tokens less ${frame} for the format and ${task} for the task leaves ${left}; ` +
    `the required files take ${required.total(levels)} in the poorest forms they accept (${forms.join(', ')})`
  );
}
