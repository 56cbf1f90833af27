/**
 * Relevance at the level of functions and classes (issue 49): BM25 of the task against each
 * declaration's name, the outlines ctxbench already parses being the declarations, pooled to the
 * file by its best declaration. A file of a thousand lines whose one method the issue names then
 * scores as a file of ten lines would, where BM25 over the whole text dilutes it.
 */
import { codeTerms } from './relevance-score.js';

/** Words before a declaration's name that are not its name. */
const KEYWORDS = new Set(
  (
    'export default async def class function pub fn func struct enum trait interface type const let var ' +
    'impl mod static abstract declare public private protected readonly unsafe get set namespace'
  ).split(' '),
);

const isWordChar = (c: string): boolean =>
  (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c === '_';

/** The name an outline's header starts with, its keywords skipped; '' when none. */
function nameOf(header: string): string {
  let rest = header.trimStart();
  // Go's receiver: `func (r *T) Name(`.
  if (rest.startsWith('func (')) rest = `func ${rest.slice(rest.indexOf(')') + 1).trimStart()}`;
  for (let guard = 0; guard < 8 && rest !== ''; guard++) {
    let i = 0;
    while (i < rest.length && isWordChar(rest.charAt(i))) i++;
    const w = rest.slice(0, i);
    if (w === '') return '';
    if (!KEYWORDS.has(w)) return w;
    rest = rest.slice(i).trimStart();
  }
  return '';
}

/** The names an outline declares, one per line `<n>: <header>` (outline.ts), in order. */
export function declarationNames(outline: string | null | undefined): string[] {
  if (outline === null || outline === undefined || outline === '') return [];
  const out: string[] = [];
  for (const line of outline.split('\n')) {
    const colon = line.indexOf(': ');
    const name = colon < 0 ? '' : nameOf(line.slice(colon + 2));
    if (name !== '') out.push(name);
  }
  return out;
}

/** BM25's constants, as minisearch and most engines have them. */
const K1 = 1.2;
const B = 0.75;

/**
 * Each file's best declaration's BM25 against the task's terms (distinct terms, each counted
 * once), the documents being every declaration of the state: its name's code terms. Files
 * declaring nothing that matches are absent.
 */
export function declarationScores(
  task: string,
  names: ReadonlyMap<string, readonly string[]>,
): Map<string, number> {
  const query = new Set(codeTerms(task));
  const docs: { readonly path: string; readonly terms: readonly string[] }[] = [];
  const df = new Map<string, number>();
  let length = 0;
  for (const [p, list] of names)
    for (const name of list) {
      const terms = codeTerms(name);
      docs.push({ path: p, terms });
      length += terms.length;
      for (const t of new Set(terms)) if (query.has(t)) df.set(t, (df.get(t) ?? 0) + 1);
    }
  const out = new Map<string, number>();
  if (docs.length === 0 || df.size === 0) return out;
  const mean = length / docs.length;
  const idf = new Map([...df].map(([t, n]) => [t, Math.log(1 + (docs.length - n + 0.5) / (n + 0.5))]));
  for (const d of docs) {
    let score = 0;
    const tf = new Map<string, number>();
    for (const t of d.terms) if (idf.has(t)) tf.set(t, (tf.get(t) ?? 0) + 1);
    for (const [t, n] of tf)
      score += ((idf.get(t) as number) * n * (K1 + 1)) / (n + K1 * (1 - B + (B * d.terms.length) / mean));
    if (score > (out.get(d.path) ?? 0)) out.set(d.path, score);
  }
  return out;
}

/** Log of a rank by score among a case's files: ties share a rank, no score ranks after every score. */
export function logRanks(scoreOf: (p: string) => number, paths: readonly string[]): Map<string, number> {
  const scores = [...new Set(paths.map(scoreOf))].filter((s) => s > 0);
  scores.sort((a, b) => b - a);
  const rankOf = new Map(scores.map((s, i) => [s, i + 1]));
  return new Map(paths.map((p) => [p, Math.log(rankOf.get(scoreOf(p)) ?? scores.length + 1)]));
}
