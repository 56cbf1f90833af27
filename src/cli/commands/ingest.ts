import path from 'node:path';
import { UsageError } from '../../harness/errors.js';
import { count } from '../../harness/format.js';
import { ingest, ingestedCorpus, openRepository } from '../../harness/ingest/index.js';
import { checkOut, guardOutput, progressLine } from '../../harness/output/index.js';
import { defineCommand, quietOption, splitList } from '../command.js';
import { EXIT } from '../io.js';

const HOW = `Each case is a commit: its message is the task, the repository at its parent commit is the
pool (every text file as a content identity in full, outline and reference forms, counted in o200k
tokens), and the source files it changed are the must content of the ledger (tests it changed,
should; generated and vendored files, distractors, their authority withheld). Cases are non-merge
commits changing 1 to 6 source files, no dependency bumps, sampled by --seed. The repository is read
with git and never written to. See docs/real-data.md.`;

/** A git repository's history as a corpus: check, study, report and compare run on it unchanged. */
export const ingestCommand = defineCommand({
  examples: [
    ['$0 ingest ../my-repo --out corpora/my-repo', 'up to 50 commits of ../my-repo as cases'],
    [
      "$0 ingest . --out corpora/self --commits 20 --include 'src/**' --budgets 2000,8000,32000",
      'twenty cases of this repository, its src/ folder only',
    ],
  ],
  options: (y) =>
    y
      .positional('repo', {
        type: 'string',
        demandOption: true,
        describe: 'a git repository (any folder of it)',
      })
      .option('out', { type: 'string', demandOption: true, describe: 'the corpus folder to write' })
      .option('commits', { type: 'number', default: 50, describe: 'how many cases (commits) at most' })
      .option('budgets', {
        type: 'string',
        default: '4000,16000,64000',
        describe: 'tight, medium and roomy budgets in real (o200k) tokens',
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
    if (!Number.isInteger(a.commits) || a.commits < 1)
      throw new UsageError('--commits must be a whole number >= 1');
    const budgets = (splitList(a.budgets) ?? []).map(Number);
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
      inputs: [path.join(openRepository(a.repo).root, '.git')],
      replaceable: ingestedCorpus,
    });
    checkOut(a.out, a.force, {
      ours: ingestedCorpus,
      what: 'a corpus ingest wrote (its manifest has no ingest block)',
    });
    const progress = progressLine(io, { quiet: a.quiet });
    const include = splitList(a.include);
    const exclude = splitList(a.exclude);
    const summary = await ingest(a.repo, a.out, {
      commits: a.commits,
      budgets: budgets as [number, number, number],
      seed: a.seed,
      maxBytes: a.maxBytes,
      ...(include === undefined ? {} : { include }),
      ...(exclude === undefined ? {} : { exclude }),
      ...(a.until === undefined ? {} : { until: a.until }),
      ...(a.name === undefined ? {} : { name: a.name }),
      progress: (phase, done, total) => progress.update(`ingest: ${phase} ${done}/${total} cases`),
    });
    progress.end(`ingest: ${count(summary.cases, 'case')}`);
    const list = (o: Readonly<Record<string, number | undefined>>) =>
      Object.entries(o)
        .map(([k, n]) => `${k} ${n}`)
        .join(', ') || 'none';
    io.out(
      `${summary.repository} @${summary.head.slice(0, 12)}: ${count(summary.cases, 'case')} written to ${a.out} ` +
        `(${count(summary.eligible, 'eligible commit')} of ${count(summary.history, 'commit')}; seed ${a.seed})\n` +
        `commits skipped: ${list(summary.skippedCommits)}\n` +
        `file versions read: ${summary.versions}; skipped: ${list(summary.skippedFiles)}\n`,
    );
    return EXIT.ok;
  },
});
