/**
 * What a person reads off an issue to find the files it needs, as numbers: the signals the
 * relevance model (relevance-model.ts) weighs. Each is cheap, each is computed the same way for a
 * commit's message, a SWE-bench problem statement and a `pack` task, and none reads the ledger.
 *
 * The task is read once (`TaskSignals`), by splitting, never by a regular expression that could
 * backtrack: a task is anybody's to write, and a word of a million dots must cost a million steps.
 */
import { declarationNames, declarationScores, logRanks } from './relevance-declarations.js';
import { type Evidence, evidenceOf, IssueEvidence } from './relevance-evidence.js';
import { FAMILIES, FEATURES, type Feature } from './relevance-families.js';
import { seededRank } from './relevance-graph.js';
import { modulePaths, pathKinds, stemOf, testSubject } from './relevance-paths.js';
import { namedIdentifiers, pathNamer } from './relevance-score.js';
import { SnippetEvidence, type Snippets, snippetsOf } from './relevance-snippets.js';

export { FAMILIES, FEATURES, type Feature, pathKinds, stemOf, testSubject };

/** Path segments a frame keeps, from its end: a path deeper than this names no file more surely. */
const FRAME_SEGMENTS = 12;
/** Longer words are not paths nor names; read no further into them. */
const LONGEST_WORD = 1_000;
/** A stem shorter than this (`io`, `os`, `api`) names too many things to count. */
const SHORTEST_STEM = 4;
const WORD_CHAR = /\w/;

/** The run of word characters that ends `s`, found from the end (a regular expression anchored at `$` retries each start). */
function trailingWord(s: string): string {
  let i = s.length;
  while (i > 0 && WORD_CHAR.test(s.charAt(i - 1))) i--;
  return s.slice(i);
}

const IDENTIFIER_PART = /^[A-Za-z_]\w*$/;

/** The task, read once for every file of its state. */
export class TaskSignals {
  /** Whether the task names the file's whole path, or its file name (relevance-score.ts). */
  private readonly names: (p: string) => boolean;
  private readonly words = new Set<string>();
  /** Every path the task writes, and each of its tails at a `/`: a traceback's frames. */
  private readonly frameTails = new Set<string>();
  /** Dotted names the task writes and their prefixes of two parts or more, as `a/b`. */
  private readonly modules = new Set<string>();
  /** Words of the task, lower-cased, with their parts at `_`: what a stem is sought among. */
  private readonly lower = new Set<string>();
  /** Identifiers the task names as code: code-shaped words, words in backticks, calls, dotted tails. */
  readonly identifiers = new Set<string>();
  /** Subjects of the tests the task names (`test_card` gives `card`). */
  private readonly subjects = new Set<string>();
  /** What it quotes, its tracebacks, its names in any convention (relevance-evidence.ts). */
  readonly evidence: IssueEvidence;
  /** Its code's pairs, imports and reached-for names (relevance-snippets.ts). */
  readonly snippets: SnippetEvidence;
  /** The task as written, for BM25 against declarations. */
  readonly text: string;

  constructor(task: string) {
    this.text = task;
    this.evidence = new IssueEvidence(task);
    this.snippets = new SnippetEvidence(task);
    this.names = pathNamer(task);
    for (const id of namedIdentifiers(task)) this.identifiers.add(id);
    for (const raw of task.split(/[\s`'"()[\]{},;:<>=|!?*]+/)) {
      if (raw === '' || raw.length > LONGEST_WORD) continue;
      const word = raw.replace(/\\/g, '/');
      this.words.add(word);
      if (word.includes('/')) this.addFrame(word);
      else if (word.includes('.')) this.addDotted(word);
    }
    for (const w of task.split(/\W+/)) {
      if (w.length < 3 || w.length > LONGEST_WORD) continue;
      const l = w.toLowerCase();
      this.lower.add(l);
      for (const part of l.split('_')) if (part.length >= SHORTEST_STEM) this.lower.add(part);
      const subject = testSubject(w);
      if (subject !== l && subject.length >= 3) this.subjects.add(subject);
    }
    const ticked = task.split('`');
    for (let k = 1; k < ticked.length; k += 2)
      for (const w of (ticked[k] as string).slice(0, LONGEST_WORD).split(/\W+/))
        if (w.length >= 3 && IDENTIFIER_PART.test(w)) this.identifiers.add(w);
    const calls = task.split('(');
    for (let k = 0; k < calls.length - 1; k++) {
      const w = trailingWord((calls[k] as string).slice(-LONGEST_WORD));
      if (w.length >= 3 && IDENTIFIER_PART.test(w)) this.identifiers.add(w);
    }
  }

  private addFrame(word: string): void {
    const parts = word.split('/').filter((s) => s !== '' && s !== '.');
    const kept = parts.slice(-FRAME_SEGMENTS);
    for (let i = 0; i < kept.length; i++) this.frameTails.add(kept.slice(i).join('/'));
  }

  private addDotted(word: string): void {
    const parts = word.split('.').slice(0, FRAME_SEGMENTS);
    if (parts.length < 2) return;
    for (let i = 0; i < parts.length; i++) {
      if (!IDENTIFIER_PART.test(parts[i] as string)) return;
      if (i >= 1) this.modules.add(parts.slice(0, i + 1).join('/'));
      if (i === parts.length - 1) this.identifiers.add(parts[i] as string);
    }
  }

  pathNamed(p: string): boolean {
    return this.words.has(p);
  }

  fileNameNamed(p: string): boolean {
    return this.names(p);
  }

  /** A frame: a longer path the task writes ends with this one (`.../site-packages/pkg/mod.py`). */
  frameNamed(p: string): boolean {
    return this.frameTails.has(p) && !this.words.has(p);
  }

  moduleNamed(p: string): boolean {
    return modulePaths(p).some((m) => this.modules.has(m));
  }

  stemNamed(p: string): boolean {
    const stem = stemOf(p).toLowerCase();
    return stem.length >= SHORTEST_STEM && this.lower.has(stem);
  }

  /** The file is what a test the task names by its function's name tests (`test_card`). */
  subjectNamed(p: string): boolean {
    return this.subjects.has(stemOf(p).toLowerCase());
  }
}

/** The `kinds` family by name. */
function kindsOf(p: string): Pick<Record<Feature, number>, (typeof FAMILIES.kinds)[number]> {
  const [kind_doc, kind_test_folder, kind_init, kind_vendored] = pathKinds(p);
  return { kind_doc, kind_test_folder, kind_init, kind_vendored };
}

/** How the task writes a file's own name: whole, by its file name, as a frame's tail, as a module. */
interface Naming {
  readonly path: boolean;
  readonly fileName: boolean;
  readonly frame: boolean;
  readonly module: boolean;
}

const pointsAt = (n: Naming): boolean => n.path || n.fileName || n.frame || n.module;

/** What `featuresOf` reads of a file. */
export interface FeatureFile {
  readonly path: string;
  readonly blob: string;
  /** Characters of its text. */
  readonly size: number;
  readonly test: boolean;
  readonly source: boolean;
  /**
   * Identifiers its outline declares, each between line breaks: its declarations' lines, a test
   * file's tests not among them (state.ts).
   */
  readonly declared: string;
  /** Its text, where quotes are sought ('' when absent). */
  readonly text?: string | undefined;
  /** Its outline (outline.ts), where its declarations' names are read. */
  readonly outline?: string | null | undefined;
}

/**
 * Each file's features, in FEATURES order, for one task: `bm25` the normalised scores by blob,
 * `near` each path's import neighbours.
 */
export function featuresOf(
  task: TaskSignals,
  files: readonly FeatureFile[],
  bm25: ReadonlyMap<string, number>,
  near: ReadonlyMap<string, ReadonlySet<string>>,
): Map<string, Float64Array> {
  // How the task names each file, read once: the features, and what the task points at.
  const named = new Map<string, Naming>(
    files.map((f) => [
      f.path,
      {
        path: task.pathNamed(f.path),
        fileName: task.fileNameNamed(f.path),
        frame: task.frameNamed(f.path),
        module: task.moduleNamed(f.path),
      },
    ]),
  );
  const pointed = new Set(files.filter((f) => pointsAt(named.get(f.path) as Naming)).map((f) => f.path));
  // A test file the task points at names its subject too.
  const subjects = new Set(
    files.filter((f) => f.test && pointed.has(f.path)).map((f) => testSubject(stemOf(f.path))),
  );
  const paths = files.map((f) => f.path);
  const blobOf = new Map(files.map((f) => [f.path, f.blob]));
  const bm25Rank = logRanks((p) => bm25.get(blobOf.get(p) as string) ?? 0, paths);
  const names = new Map(files.map((f) => [f.path, declarationNames(f.outline)]));
  const decl = declarationScores(task.text, names);
  const bestDecl = [...decl.values()].reduce((a, b) => Math.max(a, b), 0);
  const declRank = logRanks((p) => decl.get(p) ?? 0, paths);
  const evidence = evidenceOf(
    task.evidence,
    files.map((f) => ({
      path: f.path,
      text: f.text ?? '',
      stem: stemOf(f.path),
      names: names.get(f.path) as string[],
    })),
  );
  const snippets = snippetsOf(
    task.snippets,
    files.map((f) => ({ path: f.path, text: f.text ?? '', names: names.get(f.path) as string[] })),
  );
  // Seeded by what the task points at, and by the frames of its tracebacks.
  const seeds = new Set([...pointed, ...paths.filter((p) => (evidence.get(p)?.frame_rank ?? 0) > 0)]);
  const walk = seededRank(near, seeds);
  const bestWalk = [...walk.values()].reduce((a, b) => Math.max(a, b), 0);
  const out = new Map<string, Float64Array>();
  for (const f of files) {
    const how = named.get(f.path) as Naming;
    const score = bm25.get(f.blob) ?? 0;
    let declared = 0;
    if (task.identifiers.size > 0)
      for (const id of f.declared.split('\n')) if (id !== '' && task.identifiers.has(id)) declared++;
    const x: Record<Feature, number> = {
      bm25: score,
      bm25_log_rank: bm25Rank.get(f.path) as number,
      path_named: how.path ? 1 : 0,
      file_name_named: how.fileName ? 1 : 0,
      stem_named: task.stemNamed(f.path) ? 1 : 0,
      module_named: how.module ? 1 : 0,
      frame_named: how.frame ? 1 : 0,
      identifiers_declared: Math.log1p(declared),
      import_neighbour: [...(near.get(f.path) ?? [])].some((n) => pointed.has(n)) ? 1 : 0,
      test_subject_named:
        !f.test && (task.subjectNamed(f.path) || subjects.has(stemOf(f.path).toLowerCase())) ? 1 : 0,
      test_file: f.test ? 1 : 0,
      source_file: f.source && !f.test ? 1 : 0,
      log_size: Math.log1p(f.size),
      decl_bm25: bestDecl > 0 ? (decl.get(f.path) ?? 0) / bestDecl : 0,
      decl_bm25_log_rank: declRank.get(f.path) as number,
      ...(evidence.get(f.path) as Evidence),
      graph_rank: bestWalk > 0 ? (walk.get(f.path) ?? 0) / bestWalk : 0,
      ...(snippets.get(f.path) as Snippets),
      ...kindsOf(f.path),
    };
    out.set(
      f.path,
      Float64Array.from(FEATURES, (k) => x[k]),
    );
  }
  return out;
}
