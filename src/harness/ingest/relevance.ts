/**
 * Relevance of a repository's files to a task, the same for every strategy: BM25 of the task
 * text against each file (minisearch), normalised to [0, 1] by the case's best score, plus boosts
 * for the paths and identifiers the task names. docs/real-data.md states the formula.
 *
 * One index serves a whole ingest: its documents are blobs (file versions), added once each however
 * many cases hold them, and each case searches only the blobs of its own tree. BM25's document
 * frequencies and mean length are therefore those of every version the corpus holds, not of one
 * commit's tree: the price of indexing each version once instead of once per case.
 */
import MiniSearch from 'minisearch';

const LOWER = /^[a-z0-9]+$/;
const ASCII = /^[A-Za-z0-9_]+$/;

/** Words of text or code: split at anything not a letter or digit, and camelCase split too. */
export function codeTerms(text: string): string[] {
  const out: string[] = [];
  for (const word of text.split(/[^\p{L}\p{N}_]+/u)) {
    if (word === '') continue;
    // Most words of code are ASCII: a lower-case one has no parts, and the others split with
    // ASCII classes, which for ASCII match exactly what the Unicode ones match, but faster.
    if (LOWER.test(word)) {
      out.push(word);
      continue;
    }
    const parts = (
      ASCII.test(word)
        ? word.replace(/([a-z0-9])([A-Z])/g, '$1 $2').replace(/([A-Z])([A-Z][a-z])/g, '$1 $2')
        : word.replace(/([\p{Ll}\p{N}])(\p{Lu})/gu, '$1 $2').replace(/(\p{Lu})(\p{Lu}\p{Ll})/gu, '$1 $2')
    )
      .split(/[ _]+/)
      .filter((p) => p !== '');
    out.push(word.toLowerCase());
    if (parts.length > 1) for (const p of parts) out.push(p.toLowerCase());
  }
  return out;
}

/** An identifier worth a boost: 4+ characters with an inner capital, an underscore or a digit after letters. */
const IDENTIFIER = /\b[A-Za-z_$][\w$]{3,}\b/g;
const looksLikeCode = (w: string): boolean => /[a-z][A-Z]|_|[A-Z]{2,}[a-z]?|^[A-Z][a-z]+[A-Z]/.test(w);

/** The identifiers a task names, as written: the words that look like code. */
export function namedIdentifiers(task: string): Set<string> {
  return new Set((task.match(IDENTIFIER) ?? []).filter(looksLikeCode));
}

/** Whether the task names this path: the whole path, or its file name with its extension. */
export function namesPath(task: string, path: string): boolean {
  const base = path.slice(path.lastIndexOf('/') + 1);
  const words = new Set(
    task.split(/[\s`'"()[\]{},;:<>]+/).map((w) => w.replace(/^\.\//, '').replace(/[.]+$/, '')),
  );
  return words.has(path) || (base.includes('.') && words.has(base));
}

/** The weights of the formula, named once for the module and the docs. */
export const RELEVANCE_WEIGHTS = {
  /** Of the normalised BM25 score. */
  bm25: 0.7,
  /** When the task names the file's path or file name. */
  path: 0.3,
  /** Per identifier the task names that the file declares (its outline), at most `identifiersMax`. */
  identifier: 0.05,
  identifiersMax: 4,
  /** When the file imports, or is imported by, a file whose path the task names. */
  neighbour: 0.1,
} as const;

/**
 * A form's share of its file's relevance. Every form of a content earns the same in the compiler's
 * objective, so with one relevance for all three the cheapest form always wins and a bundle would
 * be a list of paths; a reference or an outline carries less of the file than its full text, and
 * says so here.
 */
export const FORM_RELEVANCE = { full: 1, outline: 0.75, reference: 0.5 } as const;

export interface Document {
  /** A blob id: one document per file version. */
  readonly blob: string;
  readonly path: string;
  readonly text: string;
}

/** The ingest's one BM25 index over file versions. */
export class RelevanceIndex {
  private readonly search = new MiniSearch<{ id: string; path: string; text: string }>({
    fields: ['path', 'text'],
    tokenize: codeTerms,
    // codeTerms already lower-cases; nothing is a stop word in code.
    processTerm: (t) => t,
    searchOptions: { boost: { path: 2 }, combineWith: 'OR' },
  });
  private readonly added = new Set<string>();

  /** Index a version once; later calls with the same blob do nothing. */
  add(doc: Document): void {
    if (this.added.has(doc.blob)) return;
    this.added.add(doc.blob);
    this.search.add({ id: doc.blob, path: doc.path, text: doc.text });
  }

  /**
   * BM25 score per blob of `blobs` for the task, normalised by the best: 1 for the best match, 0
   * for none. Blobs that match nothing are absent.
   */
  scores(task: string, blobs: ReadonlySet<string>): Map<string, number> {
    // A zero document boost skips a version before minisearch builds a result for it, where a
    // `filter` runs only after every version of the corpus was scored and built; a boost of 1
    // multiplies the score exactly, so the scores are those the filter kept.
    const hits = this.search.search(task, {
      boostDocument: (id: unknown) => (blobs.has(id as string) ? 1 : 0),
    });
    const best = hits.reduce((m, h) => Math.max(m, h.score), 0);
    const out = new Map<string, number>();
    if (best <= 0) return out;
    for (const h of hits) out.set(h.id as string, h.score / best);
    return out;
  }
}

/**
 * A file's relevance: the weighted BM25 score and the path, identifier and neighbour boosts,
 * capped at 1 and rounded to two places (candidates carry relevance as data; two places keep the
 * pool's bytes stable across floating-point noise).
 */
export function relevanceOf(
  bm25: number,
  pathNamed: boolean,
  identifiersDeclared: number,
  neighbour: boolean,
): number {
  const w = RELEVANCE_WEIGHTS;
  const raw =
    w.bm25 * bm25 +
    (pathNamed ? w.path : 0) +
    w.identifier * Math.min(identifiersDeclared, w.identifiersMax) +
    (neighbour ? w.neighbour : 0);
  return Math.round(Math.min(1, raw) * 100) / 100;
}
