import { ingestRun } from '../../harness/ingest/index.js';
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
    const include = splitList(a.include);
    const exclude = splitList(a.exclude);
    const said = await ingestRun(a.repo, {
      out: a.out,
      force: a.force,
      commits: a.commits,
      budgets: (splitList(a.budgets) ?? []).map(Number),
      seed: a.seed,
      maxBytes: a.maxBytes,
      ...(include === undefined ? {} : { include }),
      ...(exclude === undefined ? {} : { exclude }),
      ...(a.until === undefined ? {} : { until: a.until }),
      ...(a.name === undefined ? {} : { name: a.name }),
      progress: { sink: io, quiet: a.quiet },
    });
    io.out(said);
    return EXIT.ok;
  },
});
