/**
 * A commit's tree read for a pool: which entries may enter it (the user's globs, the tree's
 * `.gitignore` files, symlinks, submodules, lockfiles, the size cap) and their texts, read from git
 * a run of cases at a time.
 */

import type { BlobFacts, Skips, StateFile } from './blob-facts.js';
import { type Repository, readBlobs } from './git/git.js';
import type { TreeEntry } from './ingest-types.js';
import { classifyPath, decideEntry, decodeText, makeFilter } from './trees/tree-files.js';

/** What decides whether a tree's entry may enter a pool. */
export interface EntryOptions {
  readonly include?: readonly string[] | undefined;
  readonly exclude?: readonly string[] | undefined;
  readonly maxBytes: number;
  /** Generated and vendored files left out (counted) rather than kept with their authority withheld. */
  readonly ownOnly?: boolean;
}

/**
 * A tree's entries that may enter a pool; the others counted. `ignores` holds the texts of the
 * `.gitignore` versions read so far, by blob: the trees of one history share them.
 */
export function admissibleEntries(
  repo: Repository,
  entries: readonly TreeEntry[],
  options: EntryOptions,
  skips: Skips,
  ignores: Map<string, string> = new Map(),
): TreeEntry[] {
  const ignoreFiles = entries.filter((e) => e.path === '.gitignore' || e.path.endsWith('/.gitignore'));
  const unread = ignoreFiles.filter((e) => !ignores.has(e.blob)).map((e) => e.blob);
  for (const [blob, bytes] of readBlobs(repo, unread)) ignores.set(blob, bytes.toString('utf8'));
  const folder = (p: string) => p.slice(0, Math.max(0, p.lastIndexOf('/')));
  const filter = makeFilter({
    ...(options.include === undefined ? {} : { include: options.include }),
    ...(options.exclude === undefined ? {} : { exclude: options.exclude }),
    gitignore: new Map(ignoreFiles.map((e) => [folder(e.path), ignores.get(e.blob) ?? ''])),
  });
  return entries.filter((e) => {
    const skip = decideEntry(e, classifyPath(e.path), filter, options.maxBytes, {
      ownOnly: options.ownOnly ?? false,
    });
    if (skip !== null) skips.add(e.path, e.blob, skip);
    return skip === null;
  });
}

/** A blob's text, or why it has none: the same for every path that holds it. */
export type Decoded = string | 'binary' | 'not-utf8';

/**
 * Cases whose texts are read from git together. Every git process forks this one, which holds the
 * whole index (a gigabyte at 2,000 files): a spawn then costs about 0.1 s, so reading once a case
 * cost more than building its pool. A run of consecutive cases shares almost all of its trees, so
 * holding the run's texts is little more than holding one case's.
 */
export const RUN = 25;

/** The texts of the blobs of `entries`, those in `have` taken from it, the others read in one git process. */
export function textsOf(
  repo: Repository,
  entries: readonly TreeEntry[],
  have: ReadonlyMap<string, Decoded>,
): Map<string, Decoded> {
  const texts = new Map<string, Decoded>();
  const missing: string[] = [];
  for (const e of entries) {
    const decoded = have.get(e.blob);
    if (decoded !== undefined) texts.set(e.blob, decoded);
    else missing.push(e.blob);
  }
  for (const [blob, bytes] of readBlobs(repo, missing)) texts.set(blob, decodeText(bytes));
  return texts;
}

/** The decoded files of a tree's admissible entries, their texts from `texts`; binary and non-UTF-8 ones counted. */
export function stateFiles(
  entries: readonly TreeEntry[],
  texts: ReadonlyMap<string, Decoded>,
  skips: Skips,
): StateFile[] {
  const files: StateFile[] = [];
  for (const e of entries) {
    const decoded = texts.get(e.blob) as Decoded;
    if (decoded === 'binary' || decoded === 'not-utf8') skips.add(e.path, e.blob, decoded);
    else files.push({ path: e.path, blob: e.blob, text: decoded, cls: classifyPath(e.path) });
  }
  return files;
}

/**
 * Pass 1 of an ingest: every distinct version the cases' entries hold read, a run of cases at a
 * time, and learnt once (indexed, parsed, its facts kept, its forms counted on the worker thread
 * meanwhile); binary and non-UTF-8 ones counted. In case order, so that a version is indexed
 * under the path its first case holds it at. Returns how many versions were read; `progress`
 * hears the cases done.
 */
export async function learnVersions(
  repo: Repository,
  cases: readonly (readonly TreeEntry[])[],
  into: { readonly known: BlobFacts; readonly skips: Skips },
  progress?: (done: number) => void,
): Promise<number> {
  const learnt = new Set<string>();
  for (let run = 0; run < cases.length; run += RUN) {
    progress?.(run);
    const entries = cases.slice(run, run + RUN);
    const texts = textsOf(
      repo,
      entries.flatMap((list) => list.filter((e) => !learnt.has(e.blob))),
      new Map(),
    );
    for (const list of entries) {
      const fresh = list.filter((e) => !learnt.has(e.blob));
      for (const f of stateFiles(fresh, texts, into.skips)) {
        into.known.learn(f);
        into.known.countAhead(f);
      }
      for (const e of fresh) learnt.add(e.blob);
    }
    await into.known.settle();
  }
  progress?.(cases.length);
  return learnt.size;
}
