/**
 * The harness's word lists, each written once; `types.ts` derives its unions from them.
 */
import { REAL_TOKENIZERS } from '../compiler/index.js';

/** The three budgets of every case, in loop order. */
export const BUDGETS = ['tight', 'medium', 'roomy'] as const;

/** The ledger's classes of content, as the hidden ledger judges it. */
export const EVAL_CLASSES = ['must', 'should', 'optional', 'distractor', 'harmful'] as const;

/** The kinds of rule violation the metrics count. */
export const VIOLATION_KINDS = ['scope', 'freshness', 'authority', 'floor', 'dependency', 'group'] as const;
export type ViolationKind = (typeof VIOLATION_KINDS)[number];

/**
 * What `validate` checks a compilation for, each problem under one: the independent validators'
 * legality and result rules (docs/compiler.md §16), then what the harness re-derives.
 */
export const VALIDATION_RULES = [
  'legal',
  'result',
  'item',
  'order',
  'hash',
  'tokens',
  'budget',
  'trace',
  'rendered',
  'frame',
] as const;

/** The strategies of the published study, in its order: registry order starts with them. */
export const PUBLISHED_ORDER = ['dump', 'topk', 'weighted', 'gated', 'compiler', 'oracle'] as const;

/**
 * The assemblers people ship, run through their own code (issue 20): `--strategies peers`. A
 * name whose file is not in strategies/ is simply absent from the group.
 */
export const PEERS = [
  'prompt-tsx',
  'aider-repomap',
  'aider-files',
  'priompt',
  'langchain-trim',
  'langchain-reorder',
] as const;

/**
 * Each peer behind the hard gates (issue 36, `strategies/<peer>+gates.ts`): the same package or
 * algorithm on the candidates that pass every gate, so that a report tells the gates' share of a
 * difference from the rest of the compiler's.
 */
export const GATED_PEERS = [
  'prompt-tsx+gates',
  'aider-repomap+gates',
  'aider-files+gates',
  'priompt+gates',
  'langchain-trim+gates',
  'langchain-reorder+gates',
] as const;

/**
 * The peers whose answer by design holds no file's body: Aider's map, which the model reads before
 * it asks for files (`aider-files` is that next turn). A report prints "n/a by design" in their
 * full-text columns, where a 0 would read as a failure (issue 51).
 */
export const MAP_ONLY: readonly string[] = ['aider-repomap', 'aider-repomap+gates'];

/** The peers as shipped and behind the gates: a report's peers section, `--strategies peers`. */
export const ALL_PEERS = [...PEERS, ...GATED_PEERS] as const;

/**
 * The strategies every committed report is built from (reports/, reports/compiler-v2/,
 * reports/agent-200/, docs/findings.md, the README's headline), in registry order: the 27 that
 * ship, the peers (as shipped and behind the gates) and both readings of bm25 among them. Named
 * here once so that a plug-in dropped into strategies/ joins every run but changes none of those
 * files, nor their drift tests. To put a strategy into them,
 * add it here and run `npm run reports`.
 */
export const REPORT_STRATEGIES = [
  ...PUBLISHED_ORDER,
  'aider-files',
  'aider-files+gates',
  'aider-repomap',
  'aider-repomap+gates',
  'bm25',
  'bm25-swe',
  'cheapest-form',
  'compiler-strict',
  'compiler-v2',
  'exact',
  'langchain-reorder',
  'langchain-reorder+gates',
  'langchain-trim',
  'langchain-trim+gates',
  'priompt',
  'priompt+gates',
  'prompt-tsx',
  'prompt-tsx+gates',
  'tiered',
  'tiered-recall',
  'tiered-task',
] as const;

/**
 * The shipped strategies that share one process per job when a command asks for several of them
 * (issue 39; docs/reliability.md, "Isolation"): code this project wrote or pinned, all of
 * REPORT_STRATEGIES but the oracle, which reads the ledger and keeps a process of its own. A
 * plug-in, whatever its name, is never among them: only these names in the package's own
 * strategies folder are (hosts.ts).
 */
export const SHARED_HOST: readonly string[] = REPORT_STRATEGIES.filter((s) => s !== 'oracle');

/**
 * The generated corpus behind reports/agent-200/: a coding agent's pools of 200 candidates, so
 * that the peers are measured on pools of the size they are built for, not only on the
 * hand-written ones. `npm run reports` generates it with these; its drift test does the same.
 */
export const AGENT_REPORT = {
  name: 'agent-200',
  seed: 'agent-200',
  candidates: 200,
  cases: 10,
  profile: 'agent',
} as const;

/**
 * This repository's own history as a corpus (issue 21): `npm run ingest:self` ingests it with these
 * arguments into runs/corpora/self-2026-12 and writes reports/self-2026-12/ and docs/real-data.md.
 * The history ends at a pinned commit, so that the figures do not move with every new commit; the
 * name is fixed, so that the pools do not depend on what the clone's folder is called.
 */
export const SELF_CORPUS = {
  name: 'self-2026-12',
  until: '3ea1317f4a11e44d3dd640da86a2c0c247b97b2e',
  repository: 'ctxbench',
  commits: 24,
  include: 'src/**,strategies/**,scripts/**,bin/**',
  /**
   * The study's `--timeout`, in ms: `exact` spends its integer program's whole node count on two
   * roomy cells (c075, c140; about 4 minutes each here) and says SEARCH_LIMIT; the default of two
   * minutes would stop it first, and a stop is an error row, not its answer.
   */
  timeout: 1_800_000,
} as const;

/** `ctxbench ingest`'s arguments for SELF_CORPUS, after the repository and `--out`. */
export const selfCorpusArgs = (): string[] => [
  ...['--until', SELF_CORPUS.until, '--name', SELF_CORPUS.repository],
  ...['--commits', String(SELF_CORPUS.commits), '--include', SELF_CORPUS.include],
];

/** `ctxbench study`'s arguments for SELF_CORPUS's run, after `--corpus` and `--out`. */
export const selfStudyArgs = (): string[] => ['--jobs', '2', '--timeout', String(SELF_CORPUS.timeout)];

/**
 * The SWE-bench reproduction (`npm run swe-bench -- --repos DIR`, reports/swe-bench-lite/ and
 * docs/swe-bench.md): the vendored Lite records of the nine repositories small enough to mirror
 * here (140 instances; django, scikit-learn and matplotlib are left out), ingested with the
 * paper's limits in cl100k tokens.
 */
export const SWE_BENCH_LITE = {
  name: 'swe-bench-lite',
  records: 'data/swe-bench/lite.jsonl',
  repositories: [
    'astropy/astropy',
    'mwaskom/seaborn',
    'pallets/flask',
    'psf/requests',
    'pydata/xarray',
    'pylint-dev/pylint',
    'pytest-dev/pytest',
    'sphinx-doc/sphinx',
    'sympy/sympy',
  ],
} as const;

/** `ctxbench ingest`'s arguments for SWE_BENCH_LITE, after `--repos DIR` and `--out`. */
export const sweBenchLiteArgs = (): string[] => [
  ...['--swe-bench', SWE_BENCH_LITE.records, '--repo', SWE_BENCH_LITE.repositories.join(',')],
];

/** Names `--strategies` reads as groups: every registered strategy, and the peers. */
export const STRATEGY_GROUPS: Readonly<Record<string, readonly string[] | 'all'>> = {
  all: 'all',
  peers: ALL_PEERS,
};

/** The candidate id of the task in a pool `ingest` or `pack` builds; every other id names a file form. */
export const INGESTED_TASK_ID = 'task';

/** The reason of an error row: a strategy that threw or returned something malformed. */
export const STRATEGY_ERROR = 'STRATEGY_ERROR';

/** The shapes `generate` writes: the mixed pool of the survey, and a coding agent's context. */
export const PROFILES = ['mixed', 'agent'] as const;

/**
 * The real tokenizers a bundle's rendered text is counted with, beside the word estimate the
 * rendered cost uses: OpenAI's o200k_base and cl100k_base vocabularies, offline (gpt-tokenizer).
 * They are the compiler's own list, so a policy may name each of them as its overhead tokenizer.
 */
export const TOKENIZERS = REAL_TOKENIZERS;
