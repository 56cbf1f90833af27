/**
 * `ingest` apart from its printing: its numbers checked, its folder's place checked against the
 * repository's history, the corpus written, and what it says of what was read and skipped.
 */
import path from 'node:path';
import { UsageError } from '../errors.js';
import { count } from '../format.js';
import { checkOut, guardOutput, type ProgressSink, progressLine } from '../output/index.js';
import { openRepository } from './git.js';
import { type IngestOptions, ingest } from './ingest.js';
import { ingestedCorpus } from './ingested-corpus.js';

export interface IngestRun extends Omit<IngestOptions, 'budgets' | 'progress'> {
  /** The corpus folder to write. */
  readonly out: string;
  /** Replace a non-empty `out` that ingest wrote. */
  readonly force: boolean;
  /** Tight, medium and roomy, in real (o200k) tokens, as given: three, in order, checked here. */
  readonly budgets: readonly number[];
  readonly progress: { readonly sink: ProgressSink; readonly quiet: boolean };
}

/** The history of the repository at `repo` written as a corpus; the lines for stdout. */
export async function ingestRun(repo: string, o: IngestRun): Promise<string> {
  if (!Number.isInteger(o.commits) || o.commits < 1)
    throw new UsageError('--commits must be a whole number >= 1');
  const [tight, medium, roomy] = o.budgets as [number, number, number];
  if (o.budgets.length !== 3 || o.budgets.some((b) => !Number.isSafeInteger(b) || b < 1))
    throw new UsageError('--budgets must be three whole numbers of tokens >= 1: tight,medium,roomy');
  if (!(tight <= medium && medium <= roomy))
    throw new UsageError('--budgets must be in order: tight <= medium <= roomy');
  if (!Number.isSafeInteger(o.maxBytes) || o.maxBytes < 1)
    throw new UsageError('--max-bytes must be a whole number >= 1');
  // What ingest reads is the history, git's folder: the corpus may go anywhere else, the
  // repository's own runs/ included.
  const history = path.join(openRepository(repo).root, '.git');
  guardOutput({
    path: o.out,
    kind: 'folder',
    option: '--out',
    inputs: [history],
    replaceable: ingestedCorpus,
  });
  checkOut(o.out, o.force, {
    ours: ingestedCorpus,
    what: 'a corpus ingest wrote (its manifest has no ingest block)',
  });
  const progress = progressLine(o.progress.sink, { quiet: o.progress.quiet });
  const { out, force: _force, progress: _progress, ...options } = o;
  const summary = await ingest(repo, out, {
    ...options,
    budgets: [tight, medium, roomy],
    progress: (phase, done, total) => progress.update(`ingest: ${phase} ${done}/${total} cases`),
  });
  progress.end(`ingest: ${count(summary.cases, 'case')}`);
  const list = (o: Readonly<Record<string, number | undefined>>) =>
    Object.entries(o)
      .map(([k, n]) => `${k} ${n}`)
      .join(', ') || 'none';
  return (
    `${summary.repository} @${summary.head.slice(0, 12)}: ${count(summary.cases, 'case')} written to ${out} ` +
    `(${count(summary.eligible, 'eligible commit')} of ${count(summary.history, 'commit')}; seed ${o.seed})\n` +
    `commits skipped: ${list(summary.skippedCommits)}\n` +
    `file versions read: ${summary.versions}; skipped: ${list(summary.skippedFiles)}\n`
  );
}
