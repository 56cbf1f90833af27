/**
 * What an issue's code says about the files it needs (issue 49's error analysis): `Class.method`
 * pairs a file declares both halves of, the modules its snippets import, and the methods and
 * attributes its snippets reach for. Read once per task by splitting, never by a regular
 * expression that could backtrack; each file is then one lookup per declared name, per module
 * path and one `includes` per kept identifier, so a feature costs time linear in task and file.
 */
import { modulePaths } from './relevance-paths.js';

/** Pairs, imported modules and identifiers kept per task at most: each costs a pass over the files. */
const MOST_PAIRS = 64;
const MOST_MODULES = 64;
const MOST_USED = 16;
/** A name shorter than this (`x`, `df`, `get`) is in too many files to say anything. */
const SHORTEST_USED = 4;
/** Longer words are not names; read no further into them. */
const LONGEST_WORD = 200;
/** Words Python snippets reach for that name no file of a project. */
const COMMON = new Set(
  'self print append items keys values format split join strip shape dtype array numpy pandas assert return'.split(
    ' ',
  ),
);

const isWordChar = (c: string): boolean =>
  (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c === '_';
const isIdentifier = (w: string): boolean =>
  w !== '' && !(w.charAt(0) >= '0' && w.charAt(0) <= '9') && [...w].every(isWordChar);

/** The lines of an issue that are code: inside ``` fences, or a console's `>>>` and `...` lines. */
export function codeLines(task: string): string[] {
  const out: string[] = [];
  let fenced = false;
  for (const line of task.split('\n')) {
    const t = line.trimStart();
    if (t.startsWith('```')) fenced = !fenced;
    else if (fenced) out.push(line);
    else if (t.startsWith('>>> ') || t.startsWith('... ')) out.push(t.slice(4));
  }
  return out;
}

/** The code evidence, read once for every file of its state. */
export class SnippetEvidence {
  /** `A.b` as `A b`: adjacent parts of the dotted names the issue writes anywhere. */
  readonly pairs = new Set<string>();
  /** Modules the snippets import, as `a/b`, and `a/b/c` for `from a.b import c` (c may be a module). */
  readonly modules = new Set<string>();
  /** Names the snippets import from a module, with that module (`Dataset` from `xarray`). */
  readonly imported = new Map<string, string>();
  /** Identifiers the snippets call or reach as attributes (`.update(`, `.header_rows`). */
  readonly used: readonly string[];

  constructor(task: string) {
    for (const raw of task.split(/[^\w.]+/)) {
      if (raw.length > LONGEST_WORD || !raw.includes('.')) continue;
      const parts = raw.split('.');
      for (let i = 1; i < parts.length && this.pairs.size < MOST_PAIRS; i++) {
        const a = parts[i - 1] as string;
        const b = parts[i] as string;
        if (a.length >= 2 && b.length >= 2 && isIdentifier(a) && isIdentifier(b)) this.pairs.add(`${a} ${b}`);
      }
    }
    const used = new Set<string>();
    for (const line of codeLines(task)) {
      const words = line.trim().split(/[\s,()]+/);
      if (words[0] === 'from' && words[2] === 'import') {
        this.addImport(words[1] as string, words.slice(3));
        continue;
      }
      if (words[0] === 'import') {
        // `import a.b as c`: c is a local name, not a module.
        for (let k = 1; k < words.length; k++)
          if (words[k] === 'as') k++;
          else this.addImport(words[k] as string, []);
        continue;
      }
      // `.name` is an attribute or a method the snippet reaches for.
      const dotted = line.split('.');
      for (let k = 1; k < dotted.length && used.size < MOST_USED; k++) {
        const s = dotted[k] as string;
        let i = 0;
        while (i < s.length && i < LONGEST_WORD && isWordChar(s.charAt(i))) i++;
        const w = s.slice(0, i);
        if (w.length >= SHORTEST_USED && isIdentifier(w) && !COMMON.has(w.toLowerCase())) used.add(w);
      }
    }
    this.used = [...used];
  }

  private addImport(module: string, names: readonly string[]): void {
    if (module.length > LONGEST_WORD || !module.split('.').every(isIdentifier)) return;
    const m = module.split('.').join('/');
    if (this.modules.size < MOST_MODULES) this.modules.add(m);
    for (const n of names) {
      if (!isIdentifier(n) || this.modules.size >= MOST_MODULES) continue;
      this.modules.add(`${m}/${n}`);
      this.imported.set(n, m);
    }
  }
}

/** What `snippetsOf` reads of a file. */
export interface SnippetFile {
  readonly path: string;
  readonly text: string;
  /** The names its outline declares (relevance-declarations.ts). */
  readonly names: readonly string[];
}

/** A file's snippet features, as relevance-features.ts names them. */
export interface Snippets {
  pair_declared: number;
  snippet_imported: number;
  import_declared: number;
  snippet_used: number;
}

/**
 * Each file's snippet features for one task: `pair_declared` the log of 1 + the `A.b` pairs whose
 * both halves it declares; `snippet_imported` whether a snippet imports it as a module;
 * `import_declared` the log of 1 + the names a snippet imports from a package the file is inside
 * of and that it declares (`from xarray import Dataset` and xarray/core/dataset.py); `snippet_used`
 * the sum over identifiers the snippets reach for of 1 / (files whose text holds it), so that a
 * name in every file says nothing.
 */
export function snippetsOf(ev: SnippetEvidence, files: readonly SnippetFile[]): Map<string, Snippets> {
  const out = new Map<string, Snippets>();
  for (const f of files) {
    const names = new Set(f.names);
    let pairs = 0;
    for (const p of ev.pairs) {
      const space = p.indexOf(' ');
      if (names.has(p.slice(0, space)) && names.has(p.slice(space + 1))) pairs++;
    }
    const mine = modulePaths(f.path);
    let declared = 0;
    for (const n of names) {
      const from = ev.imported.get(n);
      if (from !== undefined && mine.some((m) => m === from || m.startsWith(`${from}/`))) declared++;
    }
    out.set(f.path, {
      pair_declared: Math.log1p(pairs),
      snippet_imported: mine.some((m) => ev.modules.has(m)) ? 1 : 0,
      import_declared: Math.log1p(declared),
      snippet_used: 0,
    });
  }
  for (const id of ev.used) {
    const holders = files.filter((f) => f.text.includes(id));
    for (const f of holders) (out.get(f.path) as Snippets).snippet_used += 1 / holders.length;
  }
  return out;
}
