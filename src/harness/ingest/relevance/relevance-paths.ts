/**
 * What a file's path says it is: its stem, the subject of a test, the module paths it answers to.
 * relevance-features.ts matches them against the words of a task.
 */

/** Files that stand for their folder, by stem and extension: the folder names the module. */
const FOLDER_FILES = /^(?:__init__\.pyi?|index\.[cm]?[jt]sx?|mod\.rs)$/;

const lastSegment = (p: string): string => p.slice(p.lastIndexOf('/') + 1);

/** The file's stem: its name without its extension, or its folder's name for `__init__.py`, `index.ts` and kin. */
export function stemOf(p: string): string {
  const base = lastSegment(p);
  const dot = base.indexOf('.', 1);
  const stem = dot < 0 ? base : base.slice(0, dot);
  const folder = p.slice(0, Math.max(0, p.lastIndexOf('/')));
  return FOLDER_FILES.test(base) && folder !== '' ? lastSegment(folder) : stem;
}

/** What a test file's name says it tests: `test_card.py`, `card_test.go`, `card.test.ts`, `TestCard.java` give `card`. */
export function testSubject(stem: string): string {
  const s = stem.toLowerCase();
  if (s.startsWith('test_')) return s.slice(5);
  if (s.endsWith('_test')) return s.slice(0, -5);
  if (s.startsWith('test') && s.length > 4 && /[A-Z]/.test(stem.charAt(4))) return s.slice(4);
  return s;
}

/**
 * The module paths a file answers to, as `a/b/c`: its path without the extension (the folder's
 * for `__init__.py`, `index.ts`, `mod.rs`), and again without a leading `src/` or `lib/`.
 */
export function modulePaths(p: string): string[] {
  const base = lastSegment(p);
  const dot = base.lastIndexOf('.');
  if (dot <= 0) return [];
  const m = FOLDER_FILES.test(base)
    ? p.slice(0, Math.max(0, p.length - base.length - 1))
    : p.slice(0, p.length - (base.length - dot));
  const out = [m];
  for (const root of ['src/', 'lib/']) if (m.startsWith(root)) out.push(m.slice(root.length));
  return out.filter((x) => x.includes('/'));
}

/** Folders whose files document or demonstrate the code rather than are it. */
const DOC_FOLDERS = new Set([
  'doc',
  'docs',
  'example',
  'examples',
  'tutorial',
  'tutorials',
  'demo',
  'demos',
  'benchmark',
  'benchmarks',
  'asv_bench',
]);
/** Folders of tests, whatever their files are called (pytest's `testing/python/fixtures.py`). */
const TEST_FOLDERS = new Set(['test', 'tests', 'testing']);
/** Folders of code copied in from elsewhere: a fix to it is rare, and its words echo the project's. */
const VENDORED_FOLDERS = new Set([
  'vendor',
  'vendored',
  'packages',
  'extern',
  'externals',
  'third_party',
  'static',
]);

/**
 * What kind of file the path alone says it is, as 0 or 1 each: documentation or examples, under a
 * test folder, a folder's `__init__` (mostly re-exports), vendored. The error analysis of issue 49
 * found such files above the gold file in half of the out-of-fold misses; the path is all they
 * read, so scripts/fit-relevance.mjs can add them to cached features.
 */
export function pathKinds(p: string): [doc: number, testFolder: number, init: number, vendored: number] {
  const folders = p.split('/').slice(0, -1);
  const any = (set: ReadonlySet<string>): number => (folders.some((f) => set.has(f.toLowerCase())) ? 1 : 0);
  return [
    any(DOC_FOLDERS),
    any(TEST_FOLDERS),
    FOLDER_FILES.test(lastSegment(p)) ? 1 : 0,
    any(VENDORED_FOLDERS),
  ];
}
