/**
 * What a path is (language, source, test, generated, vendored) and whether a file goes into a
 * pool, decided from its path, mode and size before its bytes are read, then from its bytes.
 */
import { languageOf } from '../../kit/index.js';
import type { Commit, Language, PathClass, SkipReason, TreeEntry } from '../ingest-types.js';
import { decide, ignores, MatchBudget, parseRules, type Rule } from './ignore-rules.js';

/**
 * Type stubs outline as Python too. The grammars' own extensions are the kit's `languageOf`, which
 * aider-repomap's tags read, and which leaves stubs out.
 */
const STUBS: Readonly<Record<string, Language>> = { '.pyi': 'python' };

/** Programming languages without an outline grammar: their files still count as a case's source. */
const OTHER_SOURCE = new Set([
  '.java',
  '.kt',
  '.kts',
  '.c',
  '.h',
  '.cc',
  '.cpp',
  '.cxx',
  '.hh',
  '.hpp',
  '.hxx',
  '.cs',
  '.fs',
  '.rb',
  '.php',
  '.swift',
  '.scala',
  '.m',
  '.mm',
  '.lua',
  '.sh',
  '.bash',
  '.zsh',
  '.ps1',
  '.sql',
  '.vue',
  '.svelte',
  '.dart',
  '.ex',
  '.exs',
  '.erl',
  '.hs',
  '.ml',
  '.mli',
  '.clj',
  '.cljs',
  '.groovy',
  '.pl',
  '.pm',
  '.r',
  '.jl',
  '.zig',
  '.nim',
  '.elm',
  '.sol',
]);

const TEST_FOLDERS = new Set(['test', 'tests', '__tests__', 'spec']);
const VENDOR_FOLDERS = new Set(['vendor', 'third_party', 'node_modules', 'bower_components']);
const GENERATED_FOLDERS = new Set(['dist', 'build', 'out', 'target', 'coverage']);

const TEST_NAME = [/\.(?:test|spec)\.[^.]+$/, /_test\.go$/, /^test_.*\.py$/, /_test\.py$/];
const GENERATED_NAME = [
  /\.min\.(?:js|css)$/,
  /\.map$/,
  /\.pb\.go$/,
  /_pb2(?:_grpc)?\.py$/,
  /\.generated\.[^.]+$/,
  /\.g\.dart$/,
];

/** The part of a name from its last dot, lower-cased; '' for none (or a dot file such as `.env`). */
function extension(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot <= 0 ? '' : name.slice(dot).toLowerCase();
}

function split(file: string): { readonly folders: readonly string[]; readonly name: string } {
  const parts = file.split('/');
  const name = parts.pop() ?? '';
  return { folders: parts, name };
}

export function classifyPath(file: string): PathClass {
  const { folders, name } = split(file);
  const ext = extension(name);
  const language = languageOf(file) ?? STUBS[ext] ?? null;
  return {
    language,
    source: language !== null || OTHER_SOURCE.has(ext),
    test: folders.some((f) => TEST_FOLDERS.has(f)) || TEST_NAME.some((r) => r.test(name)),
    generated: folders.some((f) => GENERATED_FOLDERS.has(f)) || GENERATED_NAME.some((r) => r.test(name)),
    vendored: folders.some((f) => VENDOR_FOLDERS.has(f)),
  };
}

const LOCKFILES = new Set([
  'package-lock.json',
  'yarn.lock',
  'pnpm-lock.yaml',
  'npm-shrinkwrap.json',
  'Cargo.lock',
  'go.sum',
  'poetry.lock',
  'Pipfile.lock',
  'composer.lock',
  'Gemfile.lock',
  'bun.lockb',
  'uv.lock',
]);

export function isLockfile(file: string): boolean {
  return LOCKFILES.has(split(file).name);
}

const MANIFESTS = new Set([
  'package.json',
  'Cargo.toml',
  'go.mod',
  'pyproject.toml',
  'Gemfile',
  'composer.json',
]);

const isManifest = (file: string): boolean => {
  const { name } = split(file);
  return MANIFESTS.has(name) || /^requirements.*\.txt$/.test(name);
};

/** The subjects dependency bots (Dependabot, Renovate) and conventional commits give bumps. */
const BUMP_SUBJECT = [
  /^bump \S+ from \S+ to \S+/i,
  /^bump the \S+ group\b/i,
  /^(?:chore|build|fix)\(deps(?:-dev)?\)/i,
  /^update dependency \S/i,
];

/** A commit that only moves dependencies: its diff says nothing about the project's own code. */
export function isDependencyBump(commit: Commit): boolean {
  if (BUMP_SUBJECT.some((r) => r.test(commit.subject))) return true;
  return commit.changes.length > 0 && commit.changes.every((c) => isLockfile(c.path) || isManifest(c.path));
}

// Git's own test for a binary file looks at the same first 8,000 bytes.
const BINARY_PROBE = 8000;

/** The text of a file, or why it has none. A UTF-8 byte order mark is not part of the text. */
export function decodeText(bytes: Buffer): string | 'binary' | 'not-utf8' {
  if (bytes.subarray(0, BINARY_PROBE).includes(0)) return 'binary';
  try {
    // ignoreBOM false (the default) is what removes a leading BOM.
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return 'not-utf8';
  }
}

export type PathFilter = (path: string) => 'excluded' | 'ignored' | null;

export interface FilterOptions {
  readonly include?: readonly string[];
  readonly exclude?: readonly string[];
  /** A `.gitignore`'s folder ('' for the root) to its text. */
  readonly gitignore?: ReadonlyMap<string, string>;
}

/**
 * A path's fate under the user's include and exclude globs (gitignore syntax), then under the
 * repository's `.gitignore` files, read as git reads them: a file's rules apply below its folder,
 * a deeper file's matching rule overrides a shallower one, and nothing below an ignored folder
 * can be brought back.
 */
export function makeFilter(options: FilterOptions): PathFilter {
  // One filter, one budget: the user's globs and the tree's rules spend from it together.
  const budget = new MatchBudget();
  const globs = (list: readonly string[] | undefined, source: string): Rule[] | null =>
    list !== undefined && list.length > 0 ? parseRules(list.join('\n'), source, budget) : null;
  const include = globs(options.include, '--include');
  const exclude = globs(options.exclude, '--exclude');
  const levels = ignoreLevels(options.gitignore ?? new Map(), budget);
  const folderIgnored = new Map<string, boolean>();
  const ignoredEntry = (entry: string, isFolder: boolean): boolean => {
    const slash = entry.lastIndexOf('/');
    if (slash > 0 && ignoredFolder(entry.slice(0, slash))) return true;
    return ignoredHere(levels, entry, isFolder);
  };
  const ignoredFolder = (folder: string): boolean => {
    let known = folderIgnored.get(folder);
    if (known === undefined) {
      known = ignoredEntry(folder, true);
      folderIgnored.set(folder, known);
    }
    return known;
  };

  return (file) => {
    if (include !== null && !ignores(include, file)) return 'excluded';
    if (exclude !== null && ignores(exclude, file)) return 'excluded';
    return levels.length > 0 && ignoredEntry(file, false) ? 'ignored' : null;
  };
}

/** One folder's ignore rules: they apply to the paths below it. */
export interface IgnoreLevel {
  /** '' for the root. */
  readonly folder: string;
  readonly rules: readonly Rule[];
}

/** `.gitignore` texts by folder as levels, shallow to deep, so that a deeper decision stands. */
export function ignoreLevels(texts: ReadonlyMap<string, string>, budget: MatchBudget): IgnoreLevel[] {
  return [...texts]
    .map(([folder, body]) => {
      const at = folder
        .split('/')
        .filter((part) => part !== '')
        .join('/');
      return { folder: at, rules: parseRules(body, at === '' ? '.gitignore' : `${at}/.gitignore`, budget) };
    })
    .sort((a, b) => depth(a.folder) - depth(b.folder) || (a.folder < b.folder ? -1 : 1));
}

/**
 * Whether the rules of `levels` ignore `entry` itself (its folders not looked at): the deepest
 * level with a matching rule decides.
 */
export function ignoredHere(levels: readonly IgnoreLevel[], entry: string, isFolder: boolean): boolean {
  return ignoreDecision(levels, entry, isFolder) === 'ignored';
}

/**
 * What the rules of `levels` say of `entry` itself: 'ignored', 'kept' (a `!` rule decided), or
 * null when no rule matches it, which leaves it to whatever ignores by default (`pack`'s list).
 */
export function ignoreDecision(
  levels: readonly IgnoreLevel[],
  entry: string,
  isFolder: boolean,
): 'ignored' | 'kept' | null {
  let said: 'ignored' | 'kept' | null = null;
  for (const { folder, rules } of levels) {
    if (folder !== '' && !entry.startsWith(`${folder}/`)) continue;
    const decision = decide(rules, folder === '' ? entry : entry.slice(folder.length + 1), isFolder);
    if (decision !== null) said = decision;
  }
  return said;
}

const depth = (folder: string): number => (folder === '' ? 0 : folder.split('/').length);

/**
 * Why a tree entry stays out of a pool, from what is known before its bytes are read, or null.
 * `cls` is the entry's classification: generated and vendored files stay in (with their authority
 * withheld downstream) unless `ownOnly` keeps the pool to the project's own files. Lockfiles stay
 * out unless `lockfiles` is 'kept': `pack` leaves them to its default ignores, which the user may
 * turn off or override.
 */
export function decideEntry(
  entry: TreeEntry,
  cls: PathClass,
  filter: PathFilter,
  maxBytes: number,
  { ownOnly = false, lockfiles = 'skipped' }: { ownOnly?: boolean; lockfiles?: 'skipped' | 'kept' } = {},
): SkipReason | null {
  if (entry.mode === '120000') return 'symlink';
  if (entry.mode === '160000') return 'submodule';
  if (entry.missing === true) return 'missing';
  if (entry.size > maxBytes) return 'too-large';
  if (lockfiles === 'skipped' && isLockfile(entry.path)) return 'lockfile';
  if (ownOnly && cls.generated) return 'generated';
  if (ownOnly && cls.vendored) return 'vendored';
  return filter(entry.path);
}
