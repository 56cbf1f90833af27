import path from 'node:path';
import { UsageError } from '../../harness/errors.js';
import { count } from '../../harness/format.js';
import {
  ingest,
  ingestedCorpus,
  ingestSweBench,
  openRepository,
  reasonList,
  sizeLine,
  sweBenchLines,
} from '../../harness/ingest/index.js';
import { checkOut, guardOutput, progressLine } from '../../harness/output/index.js';
import { defineCommand, quietOption, splitList } from '../command.js';
import { EXIT } from '../io.js';

const HOW = `Each case is a commit: its message is the task, the repository at its parent commit is the
pool (every text file as a content identity in full, outline and reference forms, counted in o200k
tokens), and the source files it changed are the must content of the ledger (tests it changed,
should; generated and vendored files, distractors, their authority withheld). Cases are non-merge
commits changing 1 to 6 source files, no dependency bumps, sampled by --seed. The repository is read
with git and never written to. See docs/real-data.md.

With --swe-bench, each case is a SWE-bench instance instead: its problem statement the task, its
repository (under --repos, as owner__name or owner/name) at base_commit the pool, the files its
gold patch edits the must content; budgets default to the paper's 13000,27000,50000 in cl100k.`;

/** A git repository's history as a corpus: check, study, report and compare run on it unchanged. */
export const ingestCommand = defineCommand({
  examples: [
    ['$0 ingest ../my-repo --out corpora/my-repo', 'up to 50 commits of ../my-repo as cases'],
    [
      '$0 ingest --swe-bench lite.jsonl --repos ../repos --out corpora/swe-lite',
      'each SWE-bench instance whose repository is under ../repos as a case',
    ],
    [
      "$0 ingest . --out corpora/self --commits 20 --include 'src/**' --budgets 2000,8000,32000",
      'twenty cases of this repository, its src/ folder only',
    ],
  ],
  options: (y) =>
    y
      .positional('repository', { type: 'string', describe: 'a git repository (any folder of it)' })
      .option('swe-bench', {
        type: 'string',
        describe: 'SWE-bench instance records (JSON or JSON Lines): one case each, instead of a history',
      })
      .option('repos', { type: 'string', describe: 'with --swe-bench: the folder holding the repositories' })
      .option('instances', {
        type: 'string',
        describe: 'with --swe-bench: only these instance ids (comma-separated)',
      })
      .option('repo', {
        type: 'string',
        describe: "with --swe-bench: only this repository's instances (owner/name)",
      })
      .option('limit', { type: 'number', describe: 'with --swe-bench: at most this many instances' })
      .option('tokenizer', {
        type: 'string',
        describe: "what token counts and budgets are in: o200k, or cl100k (the SWE-bench paper's)",
        defaultDescription: 'o200k; cl100k with --swe-bench',
      })
      .option('out', { type: 'string', demandOption: true, describe: 'the corpus folder to write' })
      .option('commits', { type: 'number', default: 50, describe: 'how many cases (commits) at most' })
      .option('budgets', {
        type: 'string',
        describe: 'tight, medium and roomy budgets in real tokens',
        defaultDescription: '4000,16000,64000; 13000,27000,50000 with --swe-bench',
      })
      .option('include', {
        type: 'string',
        describe: 'only paths matching these globs (comma-separated, gitignore syntax)',
      })
      .option('exclude', {
        type: 'string',
        describe: 'leave out paths matching these globs (comma-separated)',
      })
      .option('seed', {
        type: 'string',
        default: 'ingest',
        describe: 'the sample of commits; same seed, same corpus',
      })
      .option('max-bytes', { type: 'number', default: 1_000_000, describe: 'skip files larger than this' })
      .option('until', { type: 'string', describe: 'the last commit of the history to read (default HEAD)' })
      .option('name', {
        type: 'string',
        describe: "the repository's name, the pools' scope (default: its folder's name)",
      })
      .option('force', {
        type: 'boolean',
        default: false,
        describe: 'replace a non-empty --out that ingest wrote',
      })
      .option('quiet', quietOption)
      .epilogue(HOW),
  run: async (a, { io }) => {
    const swe = a.sweBench !== undefined;
    if (swe === (a.repository !== undefined))
      throw new UsageError('give a repository, or --swe-bench FILE with --repos DIR, not both');
    if (swe && a.repos === undefined) throw new UsageError('--swe-bench needs --repos DIR');
    if (!swe && [a.repos, a.instances, a.repo, a.limit].some((o) => o !== undefined))
      throw new UsageError('--repos, --instances, --repo and --limit go with --swe-bench');
    if (a.limit !== undefined && (!Number.isInteger(a.limit) || a.limit < 1))
      throw new UsageError('--limit must be a whole number >= 1');
    if (!Number.isInteger(a.commits) || a.commits < 1)
      throw new UsageError('--commits must be a whole number >= 1');
    const tokenizer = a.tokenizer ?? (swe ? 'cl100k' : 'o200k');
    if (tokenizer !== 'o200k' && tokenizer !== 'cl100k')
      throw new UsageError(`--tokenizer must be o200k or cl100k, not "${tokenizer}"`);
    const budgets = (splitList(a.budgets ?? (swe ? '13000,27000,50000' : '4000,16000,64000')) ?? []).map(
      Number,
    );
    if (budgets.length !== 3 || budgets.some((b) => !Number.isSafeInteger(b) || b < 1))
      throw new UsageError('--budgets must be three whole numbers of tokens >= 1: tight,medium,roomy');
    if (
      !((budgets[0] as number) <= (budgets[1] as number) && (budgets[1] as number) <= (budgets[2] as number))
    )
      throw new UsageError('--budgets must be in order: tight <= medium <= roomy');
    if (!Number.isSafeInteger(a.maxBytes) || a.maxBytes < 1)
      throw new UsageError('--max-bytes must be a whole number >= 1');
    // What ingest reads is the history, git's folder: the corpus may go anywhere else, the
    // repository's own runs/ included.
    guardOutput({
      path: a.out,
      kind: 'folder',
      option: '--out',
      inputs: swe ? [a.sweBench, a.repos] : [path.join(openRepository(a.repository as string).root, '.git')],
      replaceable: ingestedCorpus,
    });
    checkOut(a.out, a.force, {
      ours: ingestedCorpus,
      what: 'a corpus ingest wrote (its manifest has no ingest block)',
    });
    const progress = progressLine(io, { quiet: a.quiet });
    const hear = (phase: string, done: number, total: number) =>
      progress.update(`ingest: ${phase} ${done}/${total} cases`);
    if (swe) {
      const summary = await ingestSweBench(a.sweBench as string, a.repos as string, a.out, {
        instances: splitList(a.instances),
        repo: a.repo,
        limit: a.limit,
        budgets: budgets as [number, number, number],
        tokenizer,
        maxBytes: a.maxBytes,
        progress: hear,
      });
      progress.end(`ingest: ${count(summary.cases, 'case')}`);
      io.out(sweBenchLines(summary, a.out));
      return EXIT.ok;
    }
    const include = splitList(a.include);
    const exclude = splitList(a.exclude);
    const summary = await ingest(a.repository as string, a.out, {
      commits: a.commits,
      budgets: budgets as [number, number, number],
      ...(a.tokenizer === undefined ? {} : { tokenizer }),
      seed: a.seed,
      maxBytes: a.maxBytes,
      ...(include === undefined ? {} : { include }),
      ...(exclude === undefined ? {} : { exclude }),
      ...(a.until === undefined ? {} : { until: a.until }),
      ...(a.name === undefined ? {} : { name: a.name }),
      progress: hear,
    });
    progress.end(`ingest: ${count(summary.cases, 'case')}`);
    io.out(
      `${summary.repository} @${summary.head.slice(0, 12)}: ${count(summary.cases, 'case')} written to ${a.out} ` +
        `(${count(summary.eligible, 'eligible commit')} of ${count(summary.history, 'commit')}; seed ${a.seed})\n` +
        `commits skipped: ${reasonList(summary.skippedCommits)}\n` +
        `file versions read: ${summary.versions}; skipped: ${reasonList(summary.skippedFiles)}\n` +
        `${sizeLine(summary.size)}\n`,
    );
    return EXIT.ok;
  },
});
