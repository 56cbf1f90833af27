/**
 * The file-level import graph: which of a repository's files each file imports, from the
 * specifiers `Grammars.imports` finds and the resolution rules of each language, applied to the
 * repository's own paths only (a package or the standard library names no file, and is left out).
 *
 * Paths are posix, relative to the repository's root, without `./`.
 */
import { posix } from 'node:path';
import type { Language } from '../ingest-types.js';
import type { Grammars } from './outline.js';

export interface ImportContext {
  /** The `module` line of the repository's root go.mod: Go imports under it name its folders. */
  readonly goModule?: string;
}

/** The repository files a specifier names, or [] when it names none of them. */
export function resolveImport(
  language: Language,
  fromPath: string,
  specifier: string,
  files: ReadonlySet<string>,
  context: ImportContext,
): string[] {
  switch (language) {
    case 'typescript':
    case 'tsx':
    case 'javascript':
      return resolveScript(fromPath, specifier, files);
    case 'python':
      return resolvePython(fromPath, specifier, files);
    case 'go':
      return resolveGo(specifier, files, context.goModule);
    case 'rust':
      return resolveRust(fromPath, specifier, files);
  }
}

/** Each file's imports among the files: sorted, each once, never the file itself. */
export function importGraph(
  files: ReadonlyMap<string, { readonly language: Language | null; readonly text: string }>,
  grammars: Grammars,
  context: ImportContext,
): Map<string, string[]> {
  const paths = new Set(files.keys());
  const graph = new Map<string, string[]>();
  for (const [path, { language, text }] of files) {
    const targets = new Set<string>();
    if (language !== null) {
      for (const specifier of grammars.imports(language, text)) {
        for (const target of resolveImport(language, path, specifier, paths, context)) {
          if (target !== path) targets.add(target);
        }
      }
    }
    graph.set(path, [...targets].sort(byCodeUnit));
  }
  return graph;
}

/** The module path of a go.mod, or undefined when it has no `module` line. */
export function goModuleOf(goModText: string): string | undefined {
  for (const raw of goModText.split('\n')) {
    // The comment a `//` opens, as /\/\/.*$/ finds it (its `.` stops at a line break) but in one
    // pass: that regular expression is quadratic on a line of many `//`.
    const cut = raw.indexOf(
      '//',
      Math.max(raw.lastIndexOf('\r'), raw.lastIndexOf('\u2028'), raw.lastIndexOf('\u2029')) + 1,
    );
    const line = (cut < 0 ? raw : raw.slice(0, cut)).trim();
    const match = /^module\s+("([^"]+)"|`([^`]+)`|(\S+))$/.exec(line);
    if (match !== null) return match[2] ?? match[3] ?? match[4];
  }
  return undefined;
}

const byCodeUnit = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** A path joined and normalised; null when it climbs out of the repository. */
function inRepo(folder: string, relative: string): string | null {
  const joined = posix.normalize(posix.join(folder === '' ? '.' : folder, relative));
  if (joined === '..' || joined.startsWith('../') || posix.isAbsolute(joined)) return null;
  return joined === '.' ? '' : joined.replace(/\/$/, '');
}

const first = (candidates: readonly string[], files: ReadonlySet<string>): string[] => {
  const found = candidates.find((c) => files.has(c));
  return found === undefined ? [] : [found];
};

// ---- TypeScript, TSX, JavaScript ----

const SCRIPT_EXTENSIONS = ['.ts', '.tsx', '.d.ts', '.js', '.jsx', '.mjs', '.cjs'] as const;

/** NodeNext imports name the emitted file: `./a.js` is `./a.ts` in the sources. */
const EMITTED: ReadonlyMap<string, readonly string[]> = new Map([
  ['.js', ['.ts', '.tsx']],
  ['.mjs', ['.mts']],
  ['.cjs', ['.cts']],
  ['.jsx', ['.tsx']],
]);

/**
 * The paths a relative specifier may name, in the order tried: the same for every state, so kept
 * per (file, specifier) while the cache has room (an ingest resolves the same imports in every case).
 */
const tried = new Map<string, readonly string[]>();
const TRIED_MAX = 500_000;

function candidatesOf(key: string, make: () => readonly string[]): readonly string[] {
  let list = tried.get(key);
  if (list === undefined) {
    list = make();
    if (tried.size >= TRIED_MAX) tried.clear();
    tried.set(key, list);
  }
  return list;
}

function scriptCandidates(fromPath: string, specifier: string): readonly string[] {
  if (!/^\.\.?(\/|$)/.test(specifier)) return [];
  const target = inRepo(posix.dirname(fromPath), specifier);
  if (target === null) return [];
  const candidates: string[] = [];
  // `.`, `..` and `./dir/` name a folder, never a file beside it.
  if (target !== '' && !/(^|\/)\.{0,2}$/.test(specifier)) {
    candidates.push(target, ...SCRIPT_EXTENSIONS.map((ext) => target + ext));
    const ext = posix.extname(target);
    for (const source of EMITTED.get(ext) ?? []) candidates.push(target.slice(0, -ext.length) + source);
  }
  const prefix = target === '' ? '' : `${target}/`;
  candidates.push(...SCRIPT_EXTENSIONS.map((ext) => `${prefix}index${ext}`));
  return candidates;
}

const resolveScript = (fromPath: string, specifier: string, files: ReadonlySet<string>): string[] =>
  first(
    candidatesOf(`s\0${fromPath}\0${specifier}`, () => scriptCandidates(fromPath, specifier)),
    files,
  );

// ---- Python ----

function pythonCandidates(fromPath: string, specifier: string): readonly string[] {
  const dots = /^\.*/.exec(specifier)?.[0].length ?? 0;
  const parts = specifier
    .slice(dots)
    .split('.')
    .filter((p) => p !== '');
  const modules = (base: string): string[] => {
    const stem = [base, ...parts].filter((p) => p !== '').join('/');
    if (parts.length === 0) return [posix.join(stem, '__init__.py')];
    return [`${stem}.py`, `${stem}/__init__.py`];
  };
  if (dots > 0) {
    // One dot is the importing module's package (its folder); each more dot climbs one folder.
    const base = inRepo(posix.dirname(fromPath), '../'.repeat(dots - 1) || '.');
    return base === null ? [] : modules(base);
  }
  if (parts.length === 0) return [];
  return [...modules(''), ...modules('src')];
}

const resolvePython = (fromPath: string, specifier: string, files: ReadonlySet<string>): string[] =>
  first(
    candidatesOf(`p\0${fromPath}\0${specifier}`, () => pythonCandidates(fromPath, specifier)),
    files,
  );

// ---- Go ----

function resolveGo(specifier: string, files: ReadonlySet<string>, goModule: string | undefined): string[] {
  if (goModule === undefined) return [];
  let folder: string;
  if (specifier === goModule) folder = '';
  else if (specifier.startsWith(`${goModule}/`)) folder = specifier.slice(goModule.length + 1);
  else return [];
  return [...(goPackages(files).get(folder === '' ? '.' : folder) ?? [])];
}

// A state's Go files by folder, built once per set of paths: scanning every path for each import
// made an ingest quadratic in the tree's size (0.25 s a case at 2,000 files). Callers hand over
// a set they no longer change (a state's paths), so the index stays true to it.
const goFolders = new WeakMap<ReadonlySet<string>, ReadonlyMap<string, readonly string[]>>();

function goPackages(files: ReadonlySet<string>): ReadonlyMap<string, readonly string[]> {
  let byFolder = goFolders.get(files);
  if (byFolder === undefined) {
    const building = new Map<string, string[]>();
    for (const path of files) {
      if (!path.endsWith('.go') || path.endsWith('_test.go')) continue;
      const folder = posix.dirname(path);
      const list = building.get(folder);
      if (list === undefined) building.set(folder, [path]);
      else list.push(path);
    }
    for (const list of building.values()) list.sort(byCodeUnit);
    byFolder = building;
    goFolders.set(files, byFolder);
  }
  return byFolder;
}

// ---- Rust ----

const RUST_PATH_ROOTS: ReadonlySet<string> = new Set(['crate', 'self', 'super']);
const CRATE_ROOTS = ['lib.rs', 'main.rs'] as const;
const FOLDER_MODULES: ReadonlySet<string> = new Set(['mod.rs', 'lib.rs', 'main.rs']);

/** The folder a module file's child modules live in: `a/b.rs` keeps them in `a/b/`. */
function moduleFolder(path: string): string {
  const folder = posix.dirname(path) === '.' ? '' : posix.dirname(path);
  const name = posix.basename(path);
  if (FOLDER_MODULES.has(name)) return folder;
  const stem = name.replace(/\.rs$/, '');
  return folder === '' ? stem : `${folder}/${stem}`;
}

/** The nearest folder at or above the file's that holds lib.rs or main.rs (`src/`). */
function crateRoot(path: string, files: ReadonlySet<string>): string | null {
  let folder = posix.dirname(path);
  for (;;) {
    const prefix = folder === '.' ? '' : `${folder}/`;
    if (CRATE_ROOTS.some((root) => files.has(prefix + root))) return folder === '.' ? '' : folder;
    if (folder === '.' || folder === '/') return null;
    folder = posix.dirname(folder);
  }
}

/** The file of the module whose children live in `folder`. */
function folderModule(folder: string, files: ReadonlySet<string>, root: string): string[] {
  const prefix = folder === '' ? '' : `${folder}/`;
  if (folder === root)
    return first(
      CRATE_ROOTS.map((r) => prefix + r),
      files,
    );
  return first([`${folder}.rs`, `${prefix}mod.rs`], files);
}

function resolveRust(fromPath: string, specifier: string, files: ReadonlySet<string>): string[] {
  const segments = specifier.split('::');
  if (segments.length === 1 && !RUST_PATH_ROOTS.has(specifier)) {
    // `mod foo;`: a file beside this module's children.
    const folder = moduleFolder(fromPath);
    const prefix = folder === '' ? '' : `${folder}/`;
    return first([`${prefix}${specifier}.rs`, `${prefix}${specifier}/mod.rs`], files);
  }
  const root = crateRoot(fromPath, files);
  if (root === null) return [];
  let folder: string;
  let rest = segments;
  if (segments[0] === 'crate') {
    folder = root;
    rest = segments.slice(1);
  } else if (segments[0] === 'self' || segments[0] === 'super') {
    folder = moduleFolder(fromPath);
    rest = segments.slice(1);
    if (segments[0] === 'super') {
      folder = parentFolder(folder);
      while (rest[0] === 'super') {
        folder = parentFolder(folder);
        rest = rest.slice(1);
      }
    }
  } else return [];
  // The longest prefix of the path that is a module file; the rest are items within it.
  for (let length = rest.length; length > 0; length--) {
    const stem = [folder, ...rest.slice(0, length)].filter((p) => p !== '').join('/');
    const found = first([`${stem}.rs`, `${stem}/mod.rs`], files);
    if (found.length > 0) return found;
  }
  return folderModule(folder, files, root);
}

const parentFolder = (folder: string): string => (folder.includes('/') ? posix.dirname(folder) : '');
