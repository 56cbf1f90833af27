import path from 'node:path';
import { type ContextRequest, SCHEMA } from '../../compiler/index.js';
import { InputError } from '../errors.js';
import { writeWholeAsync } from '../output/index.js';
import type { Tokenizer } from '../types.js';
import { BlobFacts, poolFiles, repositoryName, type SkipCounts, Skips } from './blob-facts.js';
import { CaseFiles, type CorpusSize, folderSize, type Truth } from './case-files.js';
import { openRepository, commits as readHistory } from './git/git.js';
import { lastChanges } from './git/history.js';
import { admissibleEntries, type Decoded, learnVersions, RUN, stateFiles, textsOf } from './history-trees.js';
import type { Commit, SkipReason, TreeEntry } from './ingest-types.js';
import { caseName, ingestPolicy, sortedKeys, taskText } from './ingested-corpus.js';
import { loadGrammars } from './outlines/outline.js';
import { buildPool, type Observer } from './pool-builder.js';
import { neededAtParent, selectCases } from './select.js';
import { makeFilter } from './trees/tree-files.js';
import { treesOf } from './trees/walk.js';

export interface IngestOptions {
  readonly commits: number;
  /** Real tokens (`tokenizer`'s): tight, medium, roomy. */
  readonly budgets: readonly [number, number, number];
  /** What the pools' token counts and the policy's overhead are counted in (default o200k). */
  readonly tokenizer?: Tokenizer | undefined;
  readonly include?: readonly string[] | undefined;
  readonly exclude?: readonly string[] | undefined;
  readonly seed: string;
  /** Files larger than this many bytes are skipped. */
  readonly maxBytes: number;
  /** The last commit of the history to read (default HEAD). */
  readonly until?: string | undefined;
  /** The repository's name, the pools' scope (default: its folder's name). */
  readonly name?: string | undefined;
  /** Hears each phase's progress. */
  readonly progress?: (phase: string, done: number, total: number) => void;
  /** Sees each case's files and their relevance features (scripts/fit-relevance.mjs fits the model on them). */
  readonly observe?: Observer | undefined;
}

export interface IngestSummary {
  readonly repository: string;
  readonly head: string;
  readonly history: number;
  readonly eligible: number;
  readonly cases: number;
  readonly skippedCommits: Readonly<Record<string, number>>;
  /** File versions left out of pools, by reason, each (path, version) once. */
  readonly skippedFiles: SkipCounts;
  /** Distinct file versions read. */
  readonly versions: number;
  /** The corpus on disk, against the distinct text it holds. */
  readonly size: CorpusSize;
}

interface Plan {
  readonly index: number;
  readonly commit: Commit;
  readonly parent: string;
  readonly entries: readonly TreeEntry[];
}

/** Skips held back, in the order they came, to be counted later. */
class HeldSkips extends Skips {
  private readonly held: [string, string, SkipReason][] = [];

  override add(p: string, blob: string, reason: SkipReason): void {
    this.held.push([p, blob, reason]);
  }

  replay(into: Skips): void {
    for (const [p, blob, reason] of this.held) into.add(p, blob, reason);
  }
}

/** Ingest `dir` into the corpus folder `out`, whole or not at all. */
export async function ingest(dir: string, out: string, options: IngestOptions): Promise<IngestSummary> {
  const repo = openRepository(dir);
  const commits = readHistory(repo, options.until === undefined ? {} : { until: options.until });
  const chosen = makeFilter({
    ...(options.include === undefined ? {} : { include: options.include }),
    ...(options.exclude === undefined ? {} : { exclude: options.exclude }),
  });
  const selection = selectCases(commits, {
    count: options.commits,
    seed: options.seed,
    keep: (p) => chosen(p) === null,
  });
  const last = lastChanges(commits);
  const grammars = await loadGrammars();
  const known = new BlobFacts(grammars, options.tokenizer);
  const skips = new Skips();
  const skippedCommits: Record<string, number> = { ...selection.skipped };

  // Pass 1: every case's tree first, while this process is small and git processes are cheap to
  // start; then every distinct version in them indexed and parsed once, a run of cases at a time.
  const plans: Plan[] = [];
  const parentTrees = treesOf(
    repo,
    selection.selected.map((index) => (commits[index] as Commit).parents[0] as string),
  );
  const ignores = new Map<string, string>();
  for (let run = 0; run < selection.selected.length; run += RUN) {
    const trees = selection.selected.slice(run, run + RUN).map((index, k) => {
      const commit = commits[index] as Commit;
      const parent = commit.parents[0] as string;
      // Counted below, case by case, so that skips are met in the order they always were.
      const held = new HeldSkips();
      const entries = admissibleEntries(repo, parentTrees[run + k] ?? [], options, held, ignores);
      const { must } = neededAtParent(commit);
      return { index, commit, parent, entries, held, must: entries.filter((e) => must.includes(e.path)) };
    });
    // The run's changed files read in one git process: a process a case cost more than the reading.
    const texts = textsOf(
      repo,
      trees.flatMap((t) => t.must),
      new Map(),
    );
    for (const { index, commit, parent, entries, held, must } of trees) {
      held.replay(skips);
      // Decoded, not only admitted: a binary or non-UTF-8 must file is no more in the pool.
      if (stateFiles(must, texts, skips).length === 0) {
        // Its changed files were all left out (too large, excluded, binary, not UTF-8): nothing to find.
        skippedCommits['must-not-in-pool'] = (skippedCommits['must-not-in-pool'] ?? 0) + 1;
        continue;
      }
      plans.push({ index, commit, parent, entries });
    }
  }
  if (plans.length === 0) {
    // A corpus of no cases is no corpus: check and study reject it.
    const why = Object.entries(sortedKeys(skippedCommits))
      .map(([k, n]) => `${k} ${n}`)
      .join(', ');
    throw new InputError(
      repo.root,
      `no commit makes a case (${commits.length} ${commits.length === 1 ? 'commit' : 'commits'}; skipped: ${why})`,
    );
  }
  const versions = await learnVersions(
    repo,
    plans.map((p) => p.entries),
    { known, skips },
    (done) => options.progress?.('reading', done, plans.length),
  );

  const policy = ingestPolicy(options.tokenizer);
  const name = options.name ?? repositoryName(repo.root);
  const until = (commits[commits.length - 1] as Commit).sha;
  const corpusName = path.basename(path.resolve(out));
  const width = String(Math.max(1, commits.length - 1)).length;
  let size: CorpusSize | undefined;
  await writeWholeAsync(out, async (w) => {
    const files = new CaseFiles(w, policy, options.budgets);
    // Pass 2: one case at a time, the texts of a run of cases read together.
    let texts = new Map<string, Decoded>();
    for (const [k, plan] of plans.entries()) {
      if (k % RUN === 0)
        texts = textsOf(
          repo,
          plans.slice(k, k + RUN).flatMap((p) => p.entries),
          texts,
        );
      options.progress?.('writing', k, plans.length);
      const { commit, parent, index } = plan;
      const kase = caseName(index, commit, width);
      const task = taskText(commit);
      const state = stateFiles(plan.entries, texts, skips);
      known.nextState();
      const pooled = poolFiles(task, state, known, (p) => last.lastChangeBefore(p, index));
      const pool = buildPool({
        task,
        files: pooled,
        scope: name,
        at: parent.slice(0, 12),
        tokenizer: known.tokenizer,
        tokens: known.counter,
        forms: known.forms,
      });
      options.observe?.(kase, pooled, pool);
      const request: ContextRequest = {
        schema_version: SCHEMA.request,
        request_id: `${kase}-req`,
        task_id: kase,
        usable_token_budget: options.budgets[1],
        created_at: new Date(commit.time * 1000).toISOString().replace(/\.000Z$/, 'Z'),
        active_scope: name,
        required_ids: [],
        policy_version: policy.policy_version,
      };
      const present = new Set(state.map((f) => f.path));
      const { must, should } = neededAtParent(commit);
      const truth: Record<string, Truth> = {};
      for (const f of state)
        if (f.cls.generated || f.cls.vendored)
          truth[f.path] = { eval_class: 'distractor', min_representation: 'full' };
      for (const p of should.filter((x) => present.has(x)))
        truth[p] = { eval_class: 'should', min_representation: 'full' };
      for (const p of must.filter((x) => present.has(x)))
        truth[p] = { eval_class: 'must', min_representation: 'full' };
      files.add({
        name: kase,
        request,
        pool,
        truth,
        purpose: `${commit.sha.slice(0, 12)}: ${commit.subject}`,
      });
    }
    options.progress?.('writing', plans.length, plans.length);
    files.finish({
      fixture_set: corpusName,
      ingest: {
        repository: name,
        head: until,
        history: commits.length,
        seed: options.seed,
        budgets: options.budgets,
        ...(options.tokenizer === undefined ? {} : { tokenizer: options.tokenizer }),
        include: options.include ?? [],
        exclude: options.exclude ?? [],
        max_bytes: options.maxBytes,
        skipped_commits: sortedKeys(skippedCommits),
        skipped_files: sortedKeys(skips.counts),
      },
    });
    size = { ...folderSize(w.partial), uniqueText: files.uniqueText };
  });
  return {
    repository: name,
    head: until,
    history: commits.length,
    eligible: selection.eligible,
    cases: plans.length,
    skippedCommits,
    skippedFiles: skips.counts,
    versions,
    size: size as CorpusSize,
  };
}
