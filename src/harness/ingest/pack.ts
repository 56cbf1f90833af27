/**
 * `ctxbench pack`: the same pool builder as `ingest`, on a working tree (no history), for one task
 * and one budget. The files are those git would show (tracked, and untracked but not ignored)
 * when the folder is in a git repository, else every file under it with its `.gitignore` files
 * honoured; symlinks, lockfiles, binary, non-UTF-8 and oversized files are left out and counted.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import {
  type CompilerPolicy,
  type ContextCandidate,
  type ContextRequest,
  SCHEMA,
} from '../../compiler/index.js';
import { InputError } from '../errors.js';
import { ingestPolicy } from './corpus.js';
import { classifyPath, decideEntry, decodeText, isLockfile, makeFilter } from './files.js';
import { gitEnv, hashWorkingFile } from './git.js';
import { loadGrammars } from './outline.js';
import { buildPool } from './pool.js';
import { BlobFacts, poolFiles, repositoryName, type SkipCounts, Skips } from './state.js';
import { stateFiles } from './trees.js';
import type { TreeEntry } from './types.js';

export interface PackOptions {
  readonly task: string;
  readonly budget: number;
  readonly include?: readonly string[];
  readonly exclude?: readonly string[];
  readonly require?: readonly string[];
  readonly maxBytes: number;
}

export interface PackPool {
  readonly request: ContextRequest;
  readonly candidates: readonly ContextCandidate[];
  readonly policy: CompilerPolicy;
  readonly files: number;
  readonly skipped: SkipCounts;
}

const toPosix = (p: string): string => p.split(path.sep).join('/');

/** The files of a git working tree under `dir`, relative to it: tracked, and untracked but not ignored. */
function gitListed(dir: string): string[] | null {
  try {
    const out = execFileSync(
      'git',
      ['-c', 'core.quotepath=off', 'ls-files', '-z', '-co', '--exclude-standard', '--', '.'],
      {
        cwd: dir,
        // Without GIT_DIR and the like (set inside git hooks): they would list another repository's files.
        env: gitEnv(),
        stdio: ['ignore', 'pipe', 'ignore'],
        maxBuffer: 1 << 30,
      },
    );
    return out
      .toString('utf8')
      .split('\0')
      .filter((p) => p !== '');
  } catch {
    return null;
  }
}

/** Every file under `dir` outside `.git`, with the `.gitignore` texts found on the way. */
function walked(dir: string): { files: string[]; gitignore: Map<string, string> } {
  const files: string[] = [];
  const gitignore = new Map<string, string>();
  const visit = (rel: string): void => {
    const entries = fs.readdirSync(path.join(dir, rel), { withFileTypes: true });
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const e of entries) {
      const p = rel === '' ? e.name : `${rel}/${e.name}`;
      if (e.isDirectory()) {
        if (e.name !== '.git') visit(p);
      } else {
        if (e.name === '.gitignore') gitignore.set(rel, fs.readFileSync(path.join(dir, p), 'utf8'));
        files.push(p);
      }
    }
  };
  visit('');
  return { files, gitignore };
}

/** The working tree's entries as a tree's, with git's blob ids of their bytes. */
function entriesOf(dir: string, options: PackOptions, skips: Skips): { entry: TreeEntry; bytes: Buffer }[] {
  const listed = gitListed(dir);
  const found = listed === null ? walked(dir) : { files: listed, gitignore: new Map<string, string>() };
  const filter = makeFilter({
    ...(options.include === undefined ? {} : { include: options.include }),
    ...(options.exclude === undefined ? {} : { exclude: options.exclude }),
    gitignore: found.gitignore,
  });
  const out: { entry: TreeEntry; bytes: Buffer }[] = [];
  for (const rel of [...found.files].sort()) {
    const p = toPosix(rel);
    const full = path.join(dir, rel);
    let stat: fs.Stats;
    try {
      stat = fs.lstatSync(full);
    } catch {
      continue; // listed by git but deleted from the tree since: not there to pack
    }
    const mode = stat.isSymbolicLink() ? '120000' : stat.isDirectory() ? '160000' : '100644';
    const bare: TreeEntry = { path: p, mode, blob: '', size: stat.size };
    const skip = decideEntry(bare, classifyPath(p), filter, options.maxBytes);
    if (skip !== null) {
      skips.add(p, '', skip);
      continue;
    }
    const bytes = fs.readFileSync(full);
    out.push({ entry: { ...bare, blob: hashWorkingFile(bytes) }, bytes });
  }
  return out;
}

/** The pool for one task over the working tree at `dir`. */
export async function packPool(dir: string, options: PackOptions): Promise<PackPool> {
  if (!fs.existsSync(dir) || !fs.statSync(dir).isDirectory()) throw new InputError(dir, 'not a folder');
  if (options.task.trim() === '') throw new InputError('--task', 'the task is empty');
  const skips = new Skips();
  const read = entriesOf(dir, options, skips);
  // Decoded as ingest decodes a tree's texts, binary and non-UTF-8 files counted alike.
  const texts = new Map(read.map(({ entry, bytes }) => [entry.blob, decodeText(bytes)]));
  const files = stateFiles(
    read.map((r) => r.entry),
    texts,
    skips,
  );
  const paths = new Set(files.map((f) => f.path));
  const required = new Set(
    (options.require ?? []).map((r) => toPosix(path.normalize(r)).replace(/^\.\//, '')),
  );
  for (const r of required)
    if (!paths.has(r))
      throw new InputError(
        '--require',
        `${r} is not a file of the pool (${isLockfile(r) ? 'a lockfile' : 'not found, skipped, or outside the folder'})`,
      );
  const known = new BlobFacts(await loadGrammars());
  const policy = ingestPolicy();
  const name = repositoryName(dir);
  const candidates = buildPool({
    task: options.task,
    files: poolFiles(options.task, files, known, () => null),
    required,
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
  return { request, candidates, policy, files: files.length, skipped: skips.counts };
}
