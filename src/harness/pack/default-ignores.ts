/**
 * What `pack` leaves out of a working tree unless told otherwise: what a repomix user expects a
 * packer never to show a model (installed dependencies, other version control, build outputs,
 * caches, minified bundles and source maps, lockfiles, binary and media files). Each is decided
 * from an entry's name alone, before anything is read, so a folder such as `node_modules` is never
 * entered. An ignore rule of the tree's decides first: a `!` rule keeps what is listed here
 * (`working-tree.ts`), and `--no-default-ignores` turns the list off.
 */
import { isLockfile } from '../ingest/index.js';

/** Why an entry is left out by default, as stderr counts it. */
export type DefaultKind =
  | 'dependencies'
  | 'version control'
  | 'build outputs'
  | 'caches'
  | 'minified'
  | 'lockfiles'
  | 'binary or media';

/** Folders left out by name, wherever they lie. */
const FOLDERS: Readonly<Record<string, DefaultKind>> = {
  node_modules: 'dependencies',
  bower_components: 'dependencies',
  jspm_packages: 'dependencies',
  '.pnpm-store': 'dependencies',
  '.venv': 'dependencies',
  venv: 'dependencies',
  // `.git` is never entered at all, default ignores or none (working-tree.ts).
  '.hg': 'version control',
  '.svn': 'version control',
  '.bzr': 'version control',
  _darcs: 'version control',
  '.jj': 'version control',
  dist: 'build outputs',
  build: 'build outputs',
  out: 'build outputs',
  target: 'build outputs',
  coverage: 'build outputs',
  '.nyc_output': 'build outputs',
  htmlcov: 'build outputs',
  '.next': 'build outputs',
  '.nuxt': 'build outputs',
  '.output': 'build outputs',
  '.svelte-kit': 'build outputs',
  '.vercel': 'build outputs',
  '.eggs': 'build outputs',
  '.cache': 'caches',
  __pycache__: 'caches',
  '.pytest_cache': 'caches',
  '.mypy_cache': 'caches',
  '.ruff_cache': 'caches',
  '.hypothesis': 'caches',
  '.ipynb_checkpoints': 'caches',
  '.tox': 'caches',
  '.nox': 'caches',
  '.turbo': 'caches',
  '.parcel-cache': 'caches',
  '.sass-cache': 'caches',
  '.angular': 'caches',
  '.docusaurus': 'caches',
  '.gradle': 'caches',
  '.terraform': 'caches',
};

/** Lockfiles beyond the ones ingest already knows (isLockfile). */
const MORE_LOCKFILES = new Set([
  'bun.lock',
  'deno.lock',
  'Podfile.lock',
  'pubspec.lock',
  'mix.lock',
  'flake.lock',
  'packages.lock.json',
  'gradle.lockfile',
  'Package.resolved',
  'stack.yaml.lock',
]);

/** Files left out by the end of their name. */
const ENDINGS: readonly (readonly [RegExp, DefaultKind])[] = [
  [/\.min\.(?:js|mjs|cjs|css)$/i, 'minified'],
  [/\.map$/i, 'minified'],
  [/\.(?:pyc|pyo|tsbuildinfo)$/i, 'caches'],
  [/^(?:\.eslintcache|\.DS_Store|Thumbs\.db)$/, 'caches'],
  [
    /\.(?:png|jpe?g|gif|bmp|ico|icns|webp|avif|heic|tiff?|psd|mp3|mp4|m4a|wav|ogg|flac|aac|avi|mov|mkv|webm|wmv|woff2?|ttf|otf|eot|zip|tar|gz|tgz|bz2|xz|7z|rar|jar|war|exe|dll|so|dylib|a|o|obj|class|wasm|bin|pyd|pdf|docx?|xlsx?|pptx?|sqlite3?|db)$/i,
    'binary or media',
  ],
];

/** Why the entry named `name` is left out by default, or null when it is not. */
export function defaultKind(name: string, folder: boolean): DefaultKind | null {
  if (folder) return FOLDERS[name] ?? null;
  if (isLockfile(name) || MORE_LOCKFILES.has(name)) return 'lockfiles';
  for (const [ending, kind] of ENDINGS) if (ending.test(name)) return kind;
  return null;
}

/** The counts of the entries left out by default, as one line: `12 by default ignores (dependencies 9, ...)`. */
export function defaultIgnoredLine(
  counts: ReadonlyMap<DefaultKind, number>,
  int: (n: number) => string,
): string {
  const total = [...counts.values()].reduce((a, b) => a + b, 0);
  const kinds = [...counts]
    .sort(([a, x], [b, y]) => y - x || (a < b ? -1 : 1))
    .map(([k, n]) => `${k} ${int(n)}`);
  return `${int(total)} by default ignores (${kinds.join(', ')})`;
}
