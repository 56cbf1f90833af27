/**
 * The types of `ingest` and `pack`: a git repository read as a corpus, and a working tree read as
 * one pool. Written first so that the parts (git, files, outlines, imports, relevance, the pool,
 * the writer) agree on them.
 */

import type { Language } from '../kit/index.js';

/** The languages with an outline and an import graph: the kit's grammars. */
export type { Language };

/** A file of a tree: a commit's (from `git ls-tree`) or a working tree's. */
export interface TreeEntry {
  readonly path: string;
  /** Git's mode: 100644, 100755, 120000 (a symlink), 160000 (a submodule). */
  readonly mode: string;
  /** The blob's object id (hex); for a working tree, git's hash of the file's bytes. */
  readonly blob: string;
  /** Bytes. */
  readonly size: number;
  /** The repository lacks the object (git lists its size as `BAD`, or `missing`). */
  readonly missing?: true;
}

/** One path a commit changed, as `git log --name-status -M` reports it. */
export interface Change {
  /** A added, M modified, D deleted, R renamed (from `from`), C copied, T type changed. */
  readonly status: 'A' | 'M' | 'D' | 'R' | 'C' | 'T';
  readonly path: string;
  readonly from?: string;
}

export interface Commit {
  readonly sha: string;
  readonly parents: readonly string[];
  /** Committer time, Unix seconds. */
  readonly time: number;
  readonly subject: string;
  readonly body: string;
  readonly changes: readonly Change[];
}

/** Why a file is not in a pool; each reason is counted in the ingest summary. */
export const SKIP_REASONS = [
  'binary',
  'not-utf8',
  'too-large',
  'symlink',
  'submodule',
  'lockfile',
  'excluded',
  'ignored',
  /** A FIFO, a device or a socket in a working tree: never opened. */
  'special',
  /** An object the repository does not hold (a partial or damaged clone): never read. */
  'missing',
  /** Generated or vendored: skipped where a pool is to hold only the project's own files (SWE-bench). */
  'generated',
  'vendored',
  /** Empty, or white space alone: nothing for a model to read (`pack`). */
  'empty',
] as const;
export type SkipReason = (typeof SKIP_REASONS)[number];

/** What a path is, before its bytes are read. */
export interface PathClass {
  /** An outline grammar's language, or null (the file has no outline). */
  readonly language: Language | null;
  /** A programming-language file (outline or not): what a case's changed files are counted in. */
  readonly source: boolean;
  /** A test file, by path convention. */
  readonly test: boolean;
  /** Generated or vendored: in the pool, authority withheld. */
  readonly generated: boolean;
  readonly vendored: boolean;
}
