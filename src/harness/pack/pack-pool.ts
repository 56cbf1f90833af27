/**
 * `ctxbench pack`: the same pool builder as `ingest`, on a working tree (no history), for one task
 * and one budget. The files are those git would show (tracked, and untracked but not ignored)
 * when the folder is in a git repository, else every file under it with its `.gitignore` files
 * honoured (`working-tree.ts`); symlinks, FIFOs, devices, sockets, lockfiles, binary, non-UTF-8
 * and oversized files are left out and counted, and only regular files are ever opened.
 */
import fs from 'node:fs';
import path from 'node:path';
import {
  type CompilerPolicy,
  type ContextCandidate,
  type ContextRequest,
  SCHEMA,
} from '../../compiler/index.js';
import { InputError } from '../errors.js';
import type { TreeEntry } from '../ingest/index.js';
import {
  BlobFacts,
  buildPool,
  CaseSkips,
  classifyPath,
  codeTerms,
  decideEntry,
  decodeText,
  type Form,
  type Grammars,
  hashWorkingFile,
  ingestPolicy,
  loadGrammars,
  makeFilter,
  poolFiles,
  repositoryName,
  type SkipCounts,
  Skips,
  type StateFile,
  stateFiles,
} from '../ingest/index.js';
import type { DefaultKind } from './default-ignores.js';
import { PackCache } from './pack-cache.js';
import { isCacheFile } from './pack-cache-files.js';
import { realPlace, within } from './pack-cache-folder.js';
import { requirements, whySkipped } from './pack-require.js';
import { listWorkingTree, readRegular, throughRealFolders } from './working-tree.js';

export interface PackOptions {
  readonly task: string;
  readonly budget: number;
  readonly include?: readonly string[];
  readonly exclude?: readonly string[];
  readonly require?: readonly string[];
  readonly maxBytes: number;
  /** Whether the default ignores apply (default-ignores.ts); true unless `--no-default-ignores`. */
  readonly defaultIgnores?: boolean | undefined;
  /** Folders never listed, wherever they lie: the cache's and its key's (pack-run.ts). */
  readonly apart?: readonly string[];
}

export interface PackPool {
  readonly request: ContextRequest;
  readonly candidates: readonly ContextCandidate[];
  readonly policy: CompilerPolicy;
  readonly files: number;
  readonly skipped: SkipCounts;
  /** The entries the default ignores left out, by kind (a folder counts once). */
  readonly defaulted: ReadonlyMap<DefaultKind, number>;
  /** The files `--require` names, each with the poorest form that satisfies it. */
  readonly required: ReadonlyMap<string, Form>;
}

const toPosix = (p: string): string => p.split(path.sep).join('/');

/** Why an entry that changed between its measure and its read is skipped. */
const CHANGED = {
  symlink: 'symlink',
  folder: 'submodule',
  special: 'special',
  'too-large': 'too-large',
} as const;

/** The working tree's entries as a tree's, with git's blob ids of their bytes. */
async function entriesOf(
  dir: string,
  options: PackOptions,
  skips: Skips,
): Promise<{ read: { entry: TreeEntry; bytes: Buffer }[]; defaulted: ReadonlyMap<string, DefaultKind> }> {
  const listing = await listWorkingTree(dir, options.maxBytes, options.defaultIgnores ?? true);
  for (const p of listing.ignored) skips.add(p, '', 'ignored');
  // The ignore rules were applied by the listing; tracked files stay whatever they say.
  const filter = makeFilter({
    ...(options.include === undefined ? {} : { include: options.include }),
    ...(options.exclude === undefined ? {} : { exclude: options.exclude }),
  });
  const out: { entry: TreeEntry; bytes: Buffer }[] = [];
  const real = throughRealFolders(dir);
  const ours = cacheFiles(dir, options.apart ?? []);
  for (const p of listing.files) {
    if (ours(p)) continue;
    const full = path.join(dir, p);
    if (!real(p)) {
      skips.add(p, '', 'symlink'); // a folder on its way is a link: its target is not the tree's
      continue;
    }
    // What the entry is decides first, from its kind and size alone: an excluded or oversized
    // file is never read.
    let stat: fs.Stats;
    try {
      stat = fs.lstatSync(full);
    } catch {
      continue; // listed by git but deleted from the tree since: not there to pack
    }
    const kind = stat.isSymbolicLink()
      ? '120000'
      : stat.isDirectory()
        ? '160000'
        : stat.isFile()
          ? '100644'
          : null;
    if (kind === null) {
      skips.add(p, '', 'special');
      continue;
    }
    const bare: TreeEntry = { path: p, mode: kind, blob: '', size: stat.size };
    // Lockfiles are the default ignores' to leave out: a `!` rule or `--no-default-ignores` packs them.
    const skip = decideEntry(bare, classifyPath(p), filter, options.maxBytes, { lockfiles: 'kept' });
    if (skip !== null) {
      skips.add(p, '', skip);
      continue;
    }
    // Read as what it was when measured, or skipped for what it became (a FIFO, a larger file).
    const read = readRegular(full, options.maxBytes);
    if (Buffer.isBuffer(read)) out.push({ entry: { ...bare, blob: hashWorkingFile(read) }, bytes: read });
    else if (read !== 'gone') skips.add(p, '', CHANGED[read]);
  }
  const held = cacheFiles(dir, options.apart ?? [], true);
  return { read: out, defaulted: new Map([...listing.defaulted].filter(([p]) => !held(p))) };
}

/**
 * Whether a path of the tree at `dir` is a file of the folders `apart`: everything below one that
 * lies inside the tree, and the cache's own files of one that is the tree itself. With `holding`,
 * a folder on the way to one (`.cache` of `.cache/ctxbench`) is the cache's too: the default
 * ignores leave it out, and it is not counted, so a pack tells the same with its cache there or
 * elsewhere.
 */
function cacheFiles(dir: string, apart: readonly string[], holding = false): (p: string) => boolean {
  const rels = apart
    .filter((f) => within(f, dir))
    .map((f) => toPosix(path.relative(realPlace(dir), realPlace(f))));
  return (p) =>
    rels.some((r) =>
      r === ''
        ? !p.includes('/') && isCacheFile(p)
        : p === r || p.startsWith(`${r}/`) || (holding && r.startsWith(`${p}/`)),
    );
}

/**
 * The characters of text from which a pack counts on the worker thread: measured side by side on
 * two loaded cores, 1.9 MB of text took 1.10x the time counted there, 3.3 MB 1.00x, 17.7 MB 0.78x.
 */
const AHEAD_CHARS = 4_000_000;

const notLoaded = (): never => {
  throw new Error('the grammars were not loaded');
};
/** What stands for the grammars when every outline a pack needs is cached: never asked. */
const UNLOADED: Grammars = { outline: notLoaded, outlined: notLoaded, imports: notLoaded };

/** The grammars, loaded only when a file's facts are not in the cache. */
const grammarsFor = (files: readonly StateFile[], cache: PackCache): Promise<Grammars> | Grammars =>
  files.some((f) => f.cls.language !== null && !cache.knowsFacts(f.cls.language, f.text))
    ? loadGrammars()
    : UNLOADED;

/**
 * The pool for one task over the working tree at `dir`. `cache` holds the outlines a pack before
 * this one made (pack-cache.ts), and takes the new ones; one kept in memory when none is given.
 * The pool is the same with any cache, or none.
 */
export async function packPool(
  dir: string,
  options: PackOptions,
  cache: PackCache = PackCache.memory(),
): Promise<PackPool> {
  if (!fs.existsSync(dir) || !fs.statSync(dir).isDirectory()) throw new InputError(dir, 'not a folder');
  if (options.task.trim() === '') throw new InputError('--task', 'the task is empty');
  const counted = new Skips();
  // Each path's reason kept, for a `--require` of a file that was skipped.
  const skips = new CaseSkips(counted);
  const { read, defaulted } = await entriesOf(dir, options, skips);
  // Decoded as ingest decodes a tree's texts, binary and non-UTF-8 files counted alike.
  const texts = new Map(read.map(({ entry, bytes }) => [entry.blob, decodeText(bytes)]));
  // An empty or blank file is no candidate: its path alone would take room and tell nothing.
  const files = stateFiles(
    read.map((r) => r.entry),
    texts,
    skips,
  ).filter((f) => {
    const blank = f.text.trim() === '';
    if (blank) skips.add(f.path, '', 'empty');
    return !blank;
  });
  const required = requirements(options.require ?? [], new Set(files.map((f) => f.path)), (file) =>
    whySkipped(file, skips.reasons, defaulted),
  );
  // The cache is what stands between each file and its facts and counts; one task is scored,
  // so the index keeps its terms alone.
  const known = new BlobFacts(
    await grammarsFor(files, cache),
    'o200k',
    cache,
    new Set(codeTerms(options.task)),
  );
  // In a large tree each file is learnt (parsed, indexed) here while its forms are counted on the
  // worker thread, as ingest does: the two cores share a cold pack. The counts are the same (one
  // function counts both); the pool below finds them counted. A small tree is counted here: the
  // thread's start and its own vocabulary cost more than they save (docs/performance.md).
  if (files.reduce((n, f) => n + f.text.length, 0) >= AHEAD_CHARS) {
    for (const f of files) {
      known.learn(f);
      known.countAhead(f);
    }
    await known.settle();
  }
  const policy = ingestPolicy();
  const name = repositoryName(dir);
  const candidates = buildPool({
    task: options.task,
    files: poolFiles(options.task, files, known, () => null),
    required: new Set(required.keys()),
    scope: name,
    at: 'working tree',
    tokens: known.counter,
  });
  const request: ContextRequest = {
    schema_version: SCHEMA.request,
    request_id: 'pack-req',
    task_id: 'pack',
    usable_token_budget: options.budget,
    // A fixed time: the same tree and task give the same bundle, whenever they are packed.
    created_at: '1970-01-01T00:00:00Z',
    active_scope: name,
    required_ids: [],
    policy_version: policy.policy_version,
  };
  const kinds = new Map<DefaultKind, number>();
  for (const kind of defaulted.values()) kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
  return {
    request,
    candidates,
    policy,
    files: files.length,
    skipped: counted.counts,
    defaulted: kinds,
    required,
  };
}
