/**
 * Which commits of a history become cases: those a person could have been asked to make from
 * their message (one parent, not a dependency bump, a handful of source files changed), and of
 * those a seeded sample, so that the same history and seed always give the same corpus.
 */
import seedrandom from 'seedrandom';
import type { Commit } from './ingest-types.js';
import { TASK_LIMIT, taskText } from './ingested-corpus.js';
import { classifyPath, isDependencyBump, isLockfile } from './trees/tree-files.js';

export interface SelectOptions {
  readonly count: number;
  readonly seed: string;
  /** Fewest changed source files a case may have (1). */
  readonly minFiles?: number;
  /** Most changed source files a case may have (6). */
  readonly maxFiles?: number;
  /** Whether a path may be in a pool (the user's include and exclude); every path when absent. */
  readonly keep?: (path: string) => boolean;
}

export interface Selection {
  /** Indices into the commits, oldest first. */
  readonly selected: readonly number[];
  readonly eligible: number;
  /** Commits not eligible, by reason. */
  readonly skipped: Readonly<Record<string, number>>;
}

/** Beyond this many changed paths a commit is a sweep (a reformat, a vendored import), not a task. */
const MAX_CHANGED_PATHS = 50;

export type IneligibleReason =
  | 'root'
  | 'merge'
  | 'task-too-long'
  | 'dependency-bump'
  | 'too-many-paths'
  | 'too-few-source-files'
  | 'too-many-source-files'
  | 'nothing-at-parent';

/** The source files a commit changed: the ones a case's content is counted in. */
export function changedSourceFiles(commit: Commit): string[] {
  const files = new Set<string>();
  for (const change of commit.changes) {
    const cls = classifyPath(change.path);
    if (cls.source && !cls.generated && !cls.vendored && !isLockfile(change.path)) files.add(change.path);
  }
  return [...files];
}

export function ineligibleReason(
  commit: Commit,
  minFiles: number,
  maxFiles: number,
  keep: (path: string) => boolean = () => true,
): IneligibleReason | null {
  if (commit.parents.length === 0) return 'root';
  if (commit.parents.length > 1) return 'merge';
  // Skipped and counted, not refused: the history is the repository's, not a file prepared for
  // ingest, and one message nobody could be given as a task leaves the other commits their cases,
  // as a merge or a sweep does. Before the subject is read for a bump.
  if (taskText(commit).length > TASK_LIMIT) return 'task-too-long';
  if (isDependencyBump(commit)) return 'dependency-bump';
  if (commit.changes.length > MAX_CHANGED_PATHS) return 'too-many-paths';
  const files = changedSourceFiles(commit).length;
  if (files < minFiles) return 'too-few-source-files';
  if (files > maxFiles) return 'too-many-source-files';
  // A commit that only adds files (or changes only files the pool leaves out) leaves nothing in
  // its parent's pool for a strategy to find.
  if (!neededAtParent(commit).must.some(keep)) return 'nothing-at-parent';
  return null;
}

/**
 * The ledger's must (changed source files) and should (changed tests), as they stood at the
 * parent: modified, deleted or retyped paths, and a renamed file under its old name. A file the
 * commit added was not there to be found.
 */
export function neededAtParent(commit: Commit): { must: string[]; should: string[] } {
  const source = new Set(changedSourceFiles(commit));
  const there = new Set<string>();
  for (const c of commit.changes) {
    if ((c.status === 'M' || c.status === 'D' || c.status === 'T') && source.has(c.path)) there.add(c.path);
    else if (c.status === 'R' && c.from !== undefined && source.has(c.path)) there.add(c.from);
  }
  const files = [...there].sort();
  return {
    must: files.filter((p) => !classifyPath(p).test),
    should: files.filter((p) => classifyPath(p).test),
  };
}

export function selectCases(commits: readonly Commit[], options: SelectOptions): Selection {
  const minFiles = options.minFiles ?? 1;
  const maxFiles = options.maxFiles ?? 6;
  const eligible: number[] = [];
  const skipped: Record<string, number> = {};
  commits.forEach((commit, index) => {
    const reason = ineligibleReason(commit, minFiles, maxFiles, options.keep);
    if (reason === null) eligible.push(index);
    else skipped[reason] = (skipped[reason] ?? 0) + 1;
  });
  const count = Math.max(0, Math.floor(options.count));
  if (eligible.length <= count) return { selected: eligible, eligible: eligible.length, skipped };
  // Fisher-Yates over the eligible indices; the first `count` are the sample.
  const rng = seedrandom(options.seed);
  const pool = [...eligible];
  for (let i = pool.length - 1; i > 0; i--) {
    const j = Math.floor(rng() * (i + 1));
    const a = pool[i] as number;
    pool[i] = pool[j] as number;
    pool[j] = a;
  }
  return {
    selected: pool.slice(0, count).sort((a, b) => a - b),
    eligible: eligible.length,
    skipped,
  };
}
