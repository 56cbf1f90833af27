/**
 * The textual signals of a file's relevance to a task: BM25 of the task text against each file
 * (minisearch), normalised to [0, 1] by the case's best score, and the paths and identifiers the
 * task names. relevance-features.ts turns them into features and relevance-model.ts into a chance.
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

/** The word without its final dots; not /[.]+$/, which is quadratic on a long run of dots inside. */
function withoutFinalDots(word: string): string {
  let end = word.length;
  while (end > 0 && word[end - 1] === '.') end--;
  return word.slice(0, end);
}

/**
 * Whether the task names a path: the whole path, or its file name with its extension. The task's
 * words are split once, for all the paths of a state.
 */
export function pathNamer(task: string): (path: string) => boolean {
  const words = new Set(
    task.split(/[\s`'"()[\]{},;:<>]+/).map((w) => withoutFinalDots(w.replace(/^\.\//, ''))),
  );
  return (path) => {
    const base = path.slice(path.lastIndexOf('/') + 1);
    return words.has(path) || (base.includes('.') && words.has(base));
  };
}

export interface Document {
  /** A blob id: one document per file version. */
  readonly blob: string;
  readonly path: string;
  readonly text: string;
}

/** One term's scores: the versions it matches (by their place in the index) and its score in each. */
interface TermScores {
  readonly docs: Int32Array;
  readonly scores: Float64Array;
}

/** Term scores kept, in (version, score) pairs, at most: about 50 MB. */
const TERM_CACHE = 4_000_000;

/** A term as a string of its own: a piece of a file's text would keep the whole text alive. */
const detached = (t: string): string => (t.length < 13 ? t : ` ${t}`.slice(1));

/** The ingest's one BM25 index over file versions. */
export class RelevanceIndex {
  private search: MiniSearch<{ id: string; path: string; text: string }> | null;
  /** The only terms indexed, when the one task to be scored is known; undefined for every term. */
  private readonly only: ReadonlySet<string> | undefined;

  /**
   * `only`: the terms of the one task this index will score (`codeTerms`), when the caller knows
   * it (`pack`). The others are then left out of the index, and the scores are the same to the
   * bit: minisearch takes a field's length from its tokens before `processTerm` drops any, and a
   * term's scores read only its own postings, the document count and the lengths.
   */
  constructor(only?: ReadonlySet<string>) {
    this.only = only;
    this.search = new MiniSearch({
      fields: ['path', 'text'],
      tokenize: (text) => codeTerms(text),
      // codeTerms already lower-cases; nothing is a stop word in code.
      processTerm: only === undefined ? detached : (t) => (only.has(t) ? detached(t) : null),
      searchOptions: { boost: { path: 2 }, combineWith: 'OR' },
    });
  }
  /** Each version's place, in the order added. */
  private readonly places = new Map<string, number>();
  private readonly blobs: string[] = [];
  private readonly terms = new Map<string, TermScores>();
  private cached = 0;

  /**
   * Let the index go once every case's scores are known: it is the largest thing an ingest holds
   * (some 400 MB for 16,000 versions). Versions already added may be added again (nothing
   * happens); searching, or adding a new one, is then an error.
   */
  release(): void {
    this.search = null;
    this.terms.clear();
    this.cached = 0;
  }

  private searcher(): MiniSearch<{ id: string; path: string; text: string }> {
    if (this.search === null) throw new Error('the relevance index was released');
    return this.search;
  }

  /** Index a version once; later calls with the same blob do nothing. */
  add(doc: Document): void {
    if (this.places.has(doc.blob)) return;
    this.places.set(doc.blob, this.blobs.length);
    this.blobs.push(doc.blob);
    this.searcher().add({ id: doc.blob, path: doc.path, text: doc.text });
    // A new version changes every term's scores (the mean length, the document frequencies).
    this.terms.clear();
    this.cached = 0;
  }

  /**
   * One term's scores in every version that holds it: minisearch's search for that term alone (its
   * own tokenizer bypassed, the term being one already), kept while the cache has room.
   */
  private term(t: string): TermScores {
    const kept = this.terms.get(t);
    if (kept !== undefined) return kept;
    const hits = this.searcher().search(t, { tokenize: (q) => [q] });
    const scores: TermScores = {
      docs: Int32Array.from(hits, (h) => this.places.get(h.id as string) as number),
      scores: Float64Array.from(hits, (h) => h.score),
    };
    if (this.cached + hits.length <= TERM_CACHE) {
      this.terms.set(t, scores);
      this.cached += hits.length;
    }
    return scores;
  }

  /**
   * BM25 score per blob of `blobs` for the task, normalised by the best: 1 for the best match, 0
   * for none. Blobs that match nothing are absent.
   *
   * The scores are minisearch's for the whole task (an OR of its terms), to the bit, but summed
   * here from each term's scores, which are the same for every case: minisearch scores every
   * version of the corpus for every term and builds a result for each before any filter, which
   * was a sixth of an ingest's time. Its sum, followed exactly: a version's score adds its
   * terms' scores in the task's order (a repeated term again each time), then is multiplied by
   * the number of distinct terms it matches.
   */
  scores(task: string, blobs: ReadonlySet<string>): Map<string, number> {
    const n = this.blobs.length;
    const member = new Uint8Array(n);
    for (const b of blobs) {
      const at = this.places.get(b);
      if (at !== undefined) member[at] = 1;
    }
    const sum = new Float64Array(n);
    const matched = new Int32Array(n);
    const seen = new Set<string>();
    const terms = codeTerms(task);
    const only = this.only;
    if (only !== undefined && !terms.every((t) => only.has(t)))
      throw new Error('the relevance index was built for the terms of another task');
    for (const t of terms) {
      const first = !seen.has(t);
      seen.add(t);
      const { docs, scores } = this.term(t);
      for (let i = 0; i < docs.length; i++) {
        const d = docs[i] as number;
        if (member[d] === 0) continue;
        // minisearch starts a version's sum at its first term's score; 0 + x is x.
        sum[d] = (sum[d] as number) + (scores[i] as number);
        if (first) matched[d] = (matched[d] as number) + 1;
      }
    }
    let best = 0;
    for (let d = 0; d < n; d++)
      if (matched[d] !== 0) best = Math.max(best, (sum[d] as number) * (matched[d] as number));
    const out = new Map<string, number>();
    if (best <= 0) return out;
    for (let d = 0; d < n; d++)
      if (matched[d] !== 0)
        out.set(this.blobs[d] as string, ((sum[d] as number) * (matched[d] as number)) / best);
    return out;
  }
}
