/**
 * Where a command may write: the one check every command that writes a folder or a file makes
 * before it reads or writes anything. A run folder replaces what its `--out` held (`--force`),
 * so an output that is, holds or lies inside a corpus, a ledger or the package's own folders
 * would delete the user's data or ctxbench itself; an output file that is one of the command's
 * inputs would overwrite what it was asked to read (docs/reliability.md, "Clear errors for bad
 * input").
 */
import fs from 'node:fs';
import path from 'node:path';
import { CORPUS_MANIFEST, isThere } from '../corpus/index.js';
import { UsageError } from '../errors.js';
import { packageRoot } from '../paths.js';

/**
 * The package's own folders: its code, its data and its history. `docs/` and `reports/` are here
 * for folders only (see `FILES_ALLOWED_IN`).
 */
const PROJECT_FOLDERS = [
  '.ci',
  '.git',
  'bin',
  'corpus',
  'dist',
  'docs',
  'ledger',
  'node_modules',
  'reports',
  'schemas',
  'scripts',
  'src',
  'strategies',
  'test',
] as const;

/**
 * `docs/` and `reports/` hold the documents these commands generate (`npm run reports` writes
 * `reports/` through `report --out` and `survey --out`, and `docs/findings.md` through
 * `findings --out`): a file may be written there, one at a time and whole, but no folder there is
 * ever replaced.
 */
const FILES_ALLOWED_IN: ReadonlySet<string> = new Set(['docs', 'reports']);

/** Files at the package root that make the package: never an output. */
const ROOT_FILES: ReadonlySet<string> = new Set([
  '.gitignore',
  'biome.json',
  'NOTICE',
  'package-lock.json',
  'package.json',
  'README.md',
  'tsconfig.build.json',
  'tsconfig.json',
  'vitest.config.ts',
]);

/** Folders no output belongs in, wherever they are. */
const NEVER_INSIDE: ReadonlySet<string> = new Set(['.git', 'node_modules']);

/** Past this many entries an existing `--out` is not a run folder: refused without reading on. */
const LARGEST_REPLACED = 10_000;

export interface OutputPlace {
  /** The path as given. */
  readonly path: string;
  /** `folder`: written whole and replacing what was there; `file`: one file, written whole. */
  readonly kind: 'folder' | 'file';
  /** The option or argument that named it, for the message (`--out`, `--save`). */
  readonly option: string;
  /** The files and folders the command reads: the output must be none of them, nor hold one. */
  readonly inputs?: readonly (string | undefined)[] | undefined;
  /**
   * A folder this command may replace although it looks like a corpus (`generate` replacing a
   * corpus it generated before).
   */
  readonly replaceable?: ((dir: string) => boolean) | undefined;
}

/**
 * The path with every link of the part that exists resolved, so that a link cannot lead the
 * output into a protected place unseen; the rest is appended as given.
 */
function realPath(p: string): string {
  let existing = path.resolve(p);
  const rest: string[] = [];
  for (;;) {
    try {
      return path.join(fs.realpathSync(existing), ...rest);
    } catch {
      const up = path.dirname(existing);
      if (up === existing) return path.resolve(p);
      rest.unshift(path.basename(existing));
      existing = up;
    }
  }
}

/** `a` is `b` or lies inside it. */
const within = (a: string, b: string): boolean => {
  const rel = path.relative(b, a);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
};

const isDir = (p: string): boolean => {
  try {
    return fs.lstatSync(p).isDirectory();
  } catch {
    return false;
  }
};

/** `p` is a folder or a link to one. */
const isDirFollowed = (p: string): boolean => {
  try {
    return fs.statSync(p).isDirectory();
  } catch {
    return false;
  }
};

const namesIn = (dir: string): string[] => {
  try {
    return fs.readdirSync(dir);
  } catch {
    return [];
  }
};

/** Two names of one file (a hard link): the same device and inode. */
const sameFile = (a: string, b: string): boolean => {
  try {
    const [x, y] = [fs.statSync(a), fs.statSync(b)];
    return x.dev === y.dev && x.ino === y.ino;
  } catch {
    return false;
  }
};

/** What a folder is by its own files: a corpus, a ledger, a package, or nothing of the kind. */
export function folderKind(dir: string): 'a corpus' | 'a ledger' | 'a package' | undefined {
  const names = namesIn(dir);
  if (names.includes('package.json') || names.includes('.git')) return 'a package';
  // By its truth files, not by its name: a user's folder called ledger/ holding runs is no ledger.
  if (names.some((n) => n.endsWith('.truth.json'))) return 'a ledger';
  // A corpus is its budget manifest beside cases or a ledger: a folder where a user keeps a pool
  // or two is not one, and output beside them is fine.
  const cases = names.some((n) => n.endsWith('.candidates.json') || n.endsWith('.request.json'));
  if (names.includes(CORPUS_MANIFEST) && (cases || names.includes('ledger'))) return 'a corpus';
  return undefined;
}

/** The first folder of a tree (the root included) that is a corpus, a ledger or a package. */
function firstProtectedIn(root: string, replaceable: (dir: string) => boolean): string | undefined {
  const stack = [root];
  let seen = 0;
  for (let dir = stack.pop(); dir !== undefined; dir = stack.pop()) {
    const kind = folderKind(dir);
    if (kind !== undefined && !(dir === root && replaceable(dir))) return `${dir} is ${kind}`;
    if (kind !== undefined) continue;
    for (const name of namesIn(dir)) {
      if (++seen > LARGEST_REPLACED) return `${root} holds over ${LARGEST_REPLACED} files`;
      const child = path.join(dir, name);
      if (isDir(child)) stack.push(child);
    }
  }
  return undefined;
}

/** Why ctxbench must not write at `place`, or undefined. */
export function outputProblem(place: OutputPlace): string | undefined {
  const out = realPath(place.path);
  const root = realPath(packageRoot());
  const folder = place.kind === 'folder';
  for (const part of path.relative(path.parse(out).root, out).split(path.sep))
    if (NEVER_INSIDE.has(part)) return `it lies inside ${part}`;
  // The package root itself holds every folder below: replacing it, or any folder above it, would
  // delete ctxbench with the user's data; a file directly in it is fine unless it is the package's.
  if (folder && within(root, out)) return `it holds ctxbench itself (${root})`;
  if (!folder && path.dirname(out) === root && ROOT_FILES.has(path.basename(out)))
    return "it is one of ctxbench's own files";
  for (const name of PROJECT_FOLDERS) {
    if (!folder && FILES_ALLOWED_IN.has(name)) continue;
    if (within(out, path.join(root, name))) return `it lies inside ctxbench's own ${name}/ folder`;
  }
  for (const input of place.inputs ?? []) {
    if (input === undefined) continue;
    const inp = realPath(input);
    if (inp === out || sameFile(inp, out)) return `it is one of the command's inputs (${input})`;
    if (!folder) continue;
    if (within(inp, out)) return `it holds one of the command's inputs (${input})`;
    if (within(out, inp) && isDir(inp)) return `it lies inside one of the command's inputs (${input})`;
  }
  // Lies inside a corpus or ledger: any folder above that is one (the package's own stop at root).
  const replaceable = place.replaceable ?? (() => false);
  for (let dir = folder ? out : path.dirname(out); ; dir = path.dirname(dir)) {
    const kind = folderKind(dir);
    if (kind !== undefined && !(dir === out && replaceable(dir)) && kind !== 'a package')
      return dir === out ? `it is ${kind}` : `it lies inside ${kind} (${dir})`;
    if (path.dirname(dir) === dir) break;
  }
  if (folder && isDir(out)) {
    const held = firstProtectedIn(out, replaceable);
    if (held !== undefined) return `${held}, which replacing it would delete`;
  }
  if (!folder && isDir(out)) return 'it is a folder';
  // A file goes into a folder: an `--out` folder that is a file, a FIFO or a link to one is refused
  // here, before anything is read, rather than failing in mkdir after the work is done.
  const parent = path.dirname(path.resolve(place.path));
  if (!folder && isThere(parent) && !isDirFollowed(parent)) return `${parent} is not a folder`;
  return undefined;
}

/** Stop with one line when a command must not write at `place` (exit 2). */
export function guardOutput(place: OutputPlace): void {
  const why = outputProblem(place);
  if (why !== undefined) throw new UsageError(`refusing ${place.option} ${place.path}: ${why}`);
}
