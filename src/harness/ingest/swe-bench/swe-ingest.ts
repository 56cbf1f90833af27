/**
 * SWE-bench instances as a corpus: one case per instance, its problem statement the MANDATORY
 * task, its repository's tree at `base_commit` the pool (every text file in the forms `ingest`
 * makes, generated and vendored files left out), and the files its gold patch edits `must` in the
 * ledger. A gold file that cannot be in the pool (the patch creates it, or the pool skips it) is
 * listed in the truth file's `must_not_in_pool` with the reason, so that it is scored as missed.
 * docs/real-data.md states every choice.
 */
import path from 'node:path';
import { type ContextRequest, SCHEMA } from '../../../compiler/index.js';
import { InputError } from '../../errors.js';
import { writeWholeAsync } from '../../output/index.js';
import type { Shard, ShardInfo, Tokenizer } from '../../types.js';
import { BlobFacts, CaseSkips, poolFiles, type SkipCounts, Skips } from '../blob-facts.js';
import { CaseFiles, type CorpusSize, folderSize, type Truth } from '../case-files.js';
import type { Repository } from '../git/git.js';
import { admissibleEntries, type Decoded, learnVersions, stateFiles, textsOf } from '../history-trees.js';
import type { TreeEntry } from '../ingest-types.js';
import { ingestPolicy, sortedKeys } from '../ingested-corpus.js';
import { type Grammars, loadGrammars } from '../outlines/outline.js';
import { buildPool, type Observer } from '../pool-builder.js';
import { treesOf } from '../trees/walk.js';
import { type Instance, type InstanceFilter, readInstances, selectInstances } from './swe-records.js';
import { commitTimes, findRepository } from './swe-repos.js';
import { ingestOrder, type Slice, sliceBlock, sliceSelection } from './swe-slice.js';

export interface SweBenchOptions extends InstanceFilter {
  /** Tight, medium and roomy, in `tokenizer`'s tokens. */
  readonly budgets: readonly [number, number, number];
  readonly tokenizer: Tokenizer;
  /** Files larger than this many bytes are skipped. */
  readonly maxBytes: number;
  readonly progress?: (phase: string, done: number, total: number) => void;
  /** Sees each case's files and their relevance features, by instance id. */
  readonly observe?: Observer | undefined;
  /** Only this slice of the selection is written (swe-slice.ts). */
  readonly shard?: Shard | undefined;
}

export interface SweBenchSummary {
  readonly records: number;
  readonly selected: number;
  readonly cases: number;
  /** Instances that make no case, by id, with the reason. */
  readonly skippedInstances: Readonly<Record<string, string>>;
  readonly skippedFiles: SkipCounts;
  /** Distinct file versions read. */
  readonly versions: number;
  /** Gold files of the cases: all, in their pools, created by their patch, left out otherwise. */
  readonly gold: Readonly<Run['gold']>;
  /** Files in each case's pool, in case order. */
  readonly filesPerCase: readonly number[];
  readonly size: CorpusSize;
  /** The slice written, when only one was. */
  readonly shard?: ShardInfo | undefined;
}

/** Cases whose texts are read together when their pools are built. */
const FEW = 5;

interface Plan {
  readonly instance: Instance;
  readonly entries: readonly TreeEntry[];
  readonly skips: CaseSkips;
}

/** The first line of an issue, short: a case's purpose. */
const headline = (text: string): string => {
  const line = text.trim().split('\n')[0]?.trim() ?? '';
  return line.length > 120 ? `${line.slice(0, 117)}...` : line;
};

interface Run {
  readonly files: CaseFiles;
  readonly skips: Skips;
  readonly grammars: Grammars;
  readonly options: SweBenchOptions;
  readonly facts: Record<string, unknown>;
  readonly gold: { files: number; inPool: number; created: number; skipped: number };
  readonly filesPerCase: number[];
}

/** One repository's instances, their base commits present: all read and learnt, those `writes` keeps written. */
async function ingestRepository(
  repo: Repository,
  name: string,
  instances: readonly Instance[],
  times: ReadonlyMap<string, number>,
  run: Run,
  writes: (i: Instance) => boolean,
): Promise<number> {
  const { options } = run;
  run.files.nextRepository();
  const known = new BlobFacts(run.grammars, options.tokenizer);
  const trees = treesOf(
    repo,
    instances.map((i) => i.base_commit),
  );
  const ignores = new Map<string, string>();
  const read: Plan[] = instances.map((instance, k) => {
    const skips = new CaseSkips(run.skips);
    const entries = admissibleEntries(
      repo,
      trees[k] ?? [],
      { maxBytes: options.maxBytes, ownOnly: true },
      skips,
      ignores,
    );
    return { instance, entries, skips };
  });
  const versions = await learnVersions(
    repo,
    read.map((p) => p.entries),
    { known, skips: run.skips },
    (done) => options.progress?.(`${name}: reading`, done, read.length),
  );
  const plans = read.filter((p) => writes(p.instance));
  // Every case scored now, and the index let go before the pools are built.
  const scores = plans.map((p) =>
    known.index.scores(p.instance.problem_statement, new Set(p.entries.map((e) => e.blob))),
  );
  known.index.release();
  const policy = ingestPolicy(options.tokenizer);
  let texts = new Map<string, Decoded>();
  for (const [k, plan] of plans.entries()) {
    // A few cases' texts at a time: trees years apart share little, and a run of 25 held 200 MB.
    if (k % FEW === 0)
      texts = textsOf(
        repo,
        plans.slice(k, k + FEW).flatMap((p) => p.entries),
        texts,
      );
    options.progress?.(`${name}: writing`, k, plans.length);
    const { instance } = plan;
    const at = instance.base_commit.slice(0, 12);
    const state = stateFiles(plan.entries, texts, plan.skips);
    known.nextState();
    const task = instance.problem_statement;
    const pooled = poolFiles(task, state, known, () => null, scores[k]);
    const pool = buildPool({
      task,
      files: pooled,
      scope: name,
      at,
      tokenizer: options.tokenizer,
      tokens: known.counter,
      forms: known.forms,
    });
    options.observe?.(instance.instance_id, pooled, pool);
    const id = instance.instance_id;
    const request: ContextRequest = {
      schema_version: SCHEMA.request,
      request_id: `${id}-req`,
      task_id: id,
      usable_token_budget: options.budgets[1],
      created_at: new Date((times.get(instance.base_commit) ?? 0) * 1000)
        .toISOString()
        .replace(/\.000Z$/, 'Z'),
      active_scope: name,
      required_ids: [],
      policy_version: policy.policy_version,
    };
    const present = new Set(state.map((f) => f.path));
    const truth: Record<string, Truth> = {};
    const absent: Record<string, string> = {};
    for (const p of instance.gold.edited)
      if (present.has(p)) truth[p] = { eval_class: 'must', min_representation: 'full' };
      else absent[p] = plan.skips.reasons.get(p) ?? 'not in the tree at base_commit';
    for (const p of instance.gold.created) absent[p] = 'created by the patch';
    run.gold.files += instance.gold.edited.length + instance.gold.created.length;
    run.gold.inPool += Object.keys(truth).length;
    run.gold.created += instance.gold.created.length;
    run.gold.skipped += instance.gold.edited.length - Object.keys(truth).length;
    run.filesPerCase.push(present.size);
    run.files.add({
      name: id,
      request,
      pool,
      truth,
      truthMore: { must_not_in_pool: sortedKeys(absent) },
      purpose: `${name}@${at}: ${headline(task)}`,
    });
    run.facts[id] = {
      repo: name,
      base_commit: instance.base_commit,
      gold_files: [...instance.gold.edited, ...instance.gold.created].sort(),
      must_not_in_pool: sortedKeys(absent),
    };
  }
  options.progress?.(`${name}: writing`, plans.length, plans.length);
  return versions;
}

/** Ingest the instances of `file` whose repositories are under `reposDir` into `out`, whole or not at all. */
export async function ingestSweBench(
  file: string,
  reposDir: string,
  out: string,
  options: SweBenchOptions,
): Promise<SweBenchSummary> {
  const all = readInstances(file);
  const chosen = selectInstances(all, options);
  if (chosen.length === 0) throw new InputError(file, 'no record is left by --instances, --repo and --limit');
  const ordered = ingestOrder(chosen);
  const slice: Slice | undefined =
    options.shard === undefined ? undefined : sliceSelection(ordered, options.shard);
  const writes = (i: Instance) => slice === undefined || slice.ids.has(i.instance_id);
  // Each repository's instances in ingest order, the repositories by name.
  const byRepo = new Map<string, Instance[]>();
  for (const i of ordered) byRepo.set(i.repo, [...(byRepo.get(i.repo) ?? []), i]);
  const grammars = await loadGrammars();
  const skipped: Record<string, string> = {};
  const repositories: Record<string, Record<string, unknown>> = {};
  let versions = 0;
  let size: CorpusSize | undefined;
  let run: Run | undefined;
  await writeWholeAsync(out, async (w) => {
    const files = new CaseFiles(w, ingestPolicy(options.tokenizer), options.budgets);
    run = {
      files,
      skips: new Skips(),
      grammars,
      options,
      facts: {},
      gold: { files: 0, inPool: 0, created: 0, skipped: 0 },
      filesPerCase: [],
    };
    for (const name of byRepo.keys()) {
      const instances = byRepo.get(name) as Instance[];
      const own = instances.filter(writes);
      if (own.length === 0) continue;
      const found = findRepository(reposDir, name);
      if ('reason' in found) {
        for (const i of own) skipped[i.instance_id] = found.reason;
        repositories[name] = { instances: own.length, cases: 0, skipped: found.reason };
        continue;
      }
      const times = commitTimes(
        found.repo,
        instances.map((i) => i.base_commit),
      );
      const present = instances.filter((i) => times.has(i.base_commit));
      for (const i of own)
        if (!times.has(i.base_commit))
          skipped[i.instance_id] = `base commit ${i.base_commit} not in the repository`;
      const cases = present.filter(writes).length;
      if (cases > 0) versions += await ingestRepository(found.repo, name, present, times, run, writes);
      repositories[name] = { instances: own.length, cases };
    }
    if (files.names.length === 0)
      throw new InputError(
        file,
        `no instance makes a case: ${Object.entries(skipped)
          .slice(0, 3)
          .map(([id, why]) => `${id}: ${why}`)
          .join('; ')}`,
      );
    files.finish({
      fixture_set: path.basename(path.resolve(out)),
      ingest: {
        source: 'swe-bench',
        instances_file: path.basename(file),
        records: all.length,
        filters: {
          instances: options.instances ?? null,
          repos: options.repos ?? null,
          limit: options.limit ?? null,
        },
        tokenizer: options.tokenizer,
        budgets: options.budgets,
        max_bytes: options.maxBytes,
        repositories,
        skipped_instances: sortedKeys(skipped),
        skipped_files: sortedKeys(run.skips.counts),
        gold: run.gold,
        instances: run.facts,
        ...(slice === undefined ? {} : { shard: sliceBlock(slice, run.skips) }),
      },
    });
    size = { ...folderSize(w.partial), uniqueText: files.uniqueText };
  });
  const done = run as unknown as Run;
  return {
    records: all.length,
    selected: chosen.length,
    cases: done.files.names.length,
    skippedInstances: sortedKeys(skipped),
    skippedFiles: sortedKeys(done.skips.counts),
    versions,
    gold: done.gold,
    filesPerCase: done.filesPerCase,
    size: size as CorpusSize,
    shard: slice?.info,
  };
}
