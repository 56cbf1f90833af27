import { ingestRun } from '../../harness/ingest/index.js';
import { defineCommand, quietOption, splitList } from '../command.js';
import { EXIT } from '../io.js';

const HOW = `Each case is a commit: its message is the task, the repository at its parent commit is the
pool (every text file as a content identity in full, outline and reference forms), and the source
files it changed are the must content of the ledger (tests it changed, should; generated and vendored
files, distractors). Cases are non-merge commits changing 1 to 6 source files, no dependency bumps,
sampled by --seed. The repository is read with git and never written to.

With --swe-bench, each case is a SWE-bench instance instead: its problem statement the task, its
repository (under --repos, as owner__name) at base_commit the pool, the files its gold patch edits
the must content; budgets default to the paper's 13000,27000,50000 in cl100k. See docs/real-data.md.`;

const sweOnly = (describe: string) =>
  ({ type: 'string', describe: `with --swe-bench: ${describe}` }) as const;

/** A git repository's history, or SWE-bench instances, as a corpus: check, study, report and compare run on it unchanged. */
export const ingestCommand = defineCommand({
  examples: [
    ['$0 ingest ../my-repo --out corpora/my-repo', 'up to 50 commits of ../my-repo as cases'],
    [
      '$0 ingest --swe-bench data/swe-bench/lite.jsonl --repos ../repos --out corpora/swe-lite',
      'each SWE-bench Lite instance whose repository is under ../repos as a case',
    ],
    [
      "$0 ingest . --out corpora/self --commits 20 --include 'src/**' --budgets 2000,8000,32000",
      'twenty cases of this repository, its src/ folder only',
    ],
  ],
  options: (y) =>
    y
      .positional('repository', { type: 'string', describe: 'a git repository (any folder of it)' })
      .option('swe-bench', sweOnly('instead of a history: SWE-bench records (JSON or JSON Lines)'))
      .option('repos', sweOnly('the folder holding the repositories'))
      .option('instances', sweOnly('only these instance ids (comma-separated)'))
      .option('repo', sweOnly("only these repositories' instances (owner/name, comma-separated)"))
      .option('limit', { type: 'number', describe: 'with --swe-bench: at most this many instances' })
      .option('shard', sweOnly('i/n: only the i-th of n slices of the instances (`merge` joins them)'))
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
      .option('include', { type: 'string', describe: 'only paths matching these globs (comma-separated)' })
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
        describe: "the repository's name, the pools' scope (default: its folder's)",
      })
      .option('force', {
        type: 'boolean',
        default: false,
        describe: 'replace a non-empty --out ingest wrote',
      })
      .option('quiet', quietOption)
      .epilogue(HOW),
  run: async (a, { io }) => {
    const { repository, sweBench, repos, limit } = a;
    const instances = splitList(a.instances);
    const source = { repository, sweBench, repos, instances, repo: splitList(a.repo), limit, shard: a.shard };
    const said = await ingestRun(source, {
      out: a.out,
      force: a.force,
      commits: a.commits,
      seed: a.seed,
      maxBytes: a.maxBytes,
      budgets: a.budgets === undefined ? undefined : (splitList(a.budgets) ?? []).map(Number),
      tokenizer: a.tokenizer,
      until: a.until,
      name: a.name,
      include: splitList(a.include),
      exclude: splitList(a.exclude),
      progress: { sink: io, quiet: a.quiet },
    });
    io.out(said);
    return EXIT.ok;
  },
});
