/**
 * `ingest` apart from its printing: its numbers checked, its folder's place checked against what it
 * reads, the corpus written (a repository's history, or SWE-bench instances), and what it says of
 * what was read and skipped.
 */
import path from 'node:path';
import { UsageError } from '../errors.js';
import { count } from '../format.js';
import { checkOut, guardOutput, type ProgressSink, progressLine } from '../output/index.js';
import { parseShard } from '../shard.js';
import { openRepository } from './git/git.js';
import { type IngestOptions, ingest } from './history-ingest.js';
import { historyLines, sweBenchLines } from './ingest-summary.js';
import { ingestedCorpus } from './ingested-corpus.js';
import { ingestSweBench } from './swe-bench/swe-ingest.js';

/**
 * Where the cases come from, as given: a repository's history, or SWE-bench records over the
 * repositories under `repos` (then `instances`, `repo` and `limit` choose among them).
 */
export interface IngestSource {
  readonly repository?: string | undefined;
  readonly sweBench?: string | undefined;
  readonly repos?: string | undefined;
  readonly instances?: readonly string[] | undefined;
  readonly repo?: readonly string[] | undefined;
  readonly limit?: number | undefined;
  /** `i/n`: only the i-th of n slices of the selected instances. */
  readonly shard?: string | undefined;
}

export interface IngestRun extends Omit<IngestOptions, 'budgets' | 'progress' | 'tokenizer'> {
  /** The corpus folder to write. */
  readonly out: string;
  /** Replace a non-empty `out` that ingest wrote. */
  readonly force: boolean;
  /** Tight, medium and roomy as given (three, in order, checked here); the source's default if absent. */
  readonly budgets?: readonly number[] | undefined;
  /** o200k or cl100k as given; o200k for a history, cl100k (the SWE-bench paper's) for instances. */
  readonly tokenizer?: string | undefined;
  readonly progress: { readonly sink: ProgressSink; readonly quiet: boolean };
}

const DEFAULT_BUDGETS = { history: [4000, 16000, 64000], sweBench: [13000, 27000, 50000] } as const;

/** The corpus of `source` written to `o.out`; the lines for stdout. */
export async function ingestRun(source: IngestSource, o: IngestRun): Promise<string> {
  const { repository, sweBench, repos } = source;
  if ((sweBench === undefined) === (repository === undefined))
    throw new UsageError('give a repository, or --swe-bench FILE with --repos DIR, not both');
  if (sweBench !== undefined && repos === undefined) throw new UsageError('--swe-bench needs --repos DIR');
  if (
    sweBench === undefined &&
    [repos, source.instances, source.repo, source.limit, source.shard].some((o) => o !== undefined)
  )
    throw new UsageError('--repos, --instances, --repo, --limit and --shard go with --swe-bench');
  const swe = sweBench === undefined ? undefined : { ...source, sweBench, repos: repos as string };
  if (!Number.isInteger(o.commits) || o.commits < 1)
    throw new UsageError('--commits must be a whole number >= 1');
  if (swe?.limit !== undefined && (!Number.isInteger(swe.limit) || swe.limit < 1))
    throw new UsageError('--limit must be a whole number >= 1');
  const tokenizer = o.tokenizer ?? (swe ? 'cl100k' : 'o200k');
  if (tokenizer !== 'o200k' && tokenizer !== 'cl100k')
    throw new UsageError(`--tokenizer must be o200k or cl100k, not "${tokenizer}"`);
  const budgets = o.budgets ?? DEFAULT_BUDGETS[swe ? 'sweBench' : 'history'];
  const [tight, medium, roomy] = budgets as [number, number, number];
  if (budgets.length !== 3 || budgets.some((b) => !Number.isSafeInteger(b) || b < 1))
    throw new UsageError('--budgets must be three whole numbers of tokens >= 1: tight,medium,roomy');
  if (!(tight <= medium && medium <= roomy))
    throw new UsageError('--budgets must be in order: tight <= medium <= roomy');
  if (!Number.isSafeInteger(o.maxBytes) || o.maxBytes < 1)
    throw new UsageError('--max-bytes must be a whole number >= 1');
  // What ingest reads is the records and git's folders: the corpus may go anywhere else, a
  // repository's own runs/ included.
  guardOutput({
    path: o.out,
    kind: 'folder',
    option: '--out',
    inputs: swe ? [swe.sweBench, swe.repos] : [path.join(openRepository(repository as string).root, '.git')],
    replaceable: ingestedCorpus,
  });
  checkOut(o.out, o.force, {
    ours: ingestedCorpus,
    what: 'a corpus ingest wrote (its manifest has no ingest block)',
  });
  const progress = progressLine(o.progress.sink, { quiet: o.progress.quiet });
  const hear = (phase: string, done: number, total: number) =>
    progress.update(`ingest: ${phase} ${done}/${total} cases`);
  if (swe) {
    const s = await ingestSweBench(swe.sweBench, swe.repos, o.out, {
      instances: swe.instances,
      repos: swe.repo,
      limit: swe.limit,
      shard: swe.shard === undefined ? undefined : parseShard(swe.shard),
      budgets: [tight, medium, roomy],
      tokenizer,
      maxBytes: o.maxBytes,
      progress: hear,
      observe: o.observe,
    });
    progress.end(`ingest: ${count(s.cases, 'case')}`);
    return sweBenchLines(s, o.out);
  }
  const { out, force: _force, progress: _progress, budgets: _budgets, tokenizer: _tokenizer, ...options } = o;
  const s = await ingest(repository as string, out, {
    ...options,
    budgets: [tight, medium, roomy],
    tokenizer: o.tokenizer === undefined ? undefined : tokenizer,
    progress: hear,
  });
  progress.end(`ingest: ${count(s.cases, 'case')}`);
  return historyLines(s, out, o.seed);
}
