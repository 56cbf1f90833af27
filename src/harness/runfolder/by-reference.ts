/**
 * compilations.jsonl of an ingested corpus, its texts by reference (docs/formats.md,
 * "compilations.jsonl"). Every cell of such a run holds the same files' texts over and over, and
 * every trace an entry per candidate: 20 commits of a 65-file repository made 100 MB and more. A
 * line of such a run names the corpus by its digest (`by_reference`) and writes each candidate as
 * its place in the case's candidates file (0 the first), so that what the corpus holds is written
 * once, there:
 *
 * - `bundle.items`: an item the harness built from candidate n at its position is `[n, token_count]`;
 *   `bundle.layout_trace`: a candidate's id is its place;
 * - `result.trace.entries`: `{"words": [[decision, reason_code, reason_detail], ...], "rows": [...]}`,
 *   an entry that repeats candidate n's identity, form, class and relevance being the row
 *   `[n, word, marginal_cost, budget_before, budget_after, position]` (and its dependency closure
 *   and pulled-in-by when either is not empty);
 * - `rendered_text`: null, since it is the bundle rendered in the run's frame.
 *
 * Anything else stays as it was (an item or entry of another shape, a failure), and a line is
 * written by reference only when it reads back to the very bytes of the whole line: nothing a
 * reader sees after `expandLine` differs from what the study compiled.
 */
import {
  bundleItem,
  type ContextBundle,
  type ContextCandidate,
  type Frame,
  isPlainObject,
  renderBundleText,
} from '../../compiler/index.js';
import { InputError } from '../errors.js';
import type { CompilationLine } from '../types.js';

/** Where a run's texts are: its corpus, by digest, and the frame its bundles are rendered in. */
export interface RunTexts {
  readonly digest: string;
  readonly frame: Frame | undefined;
  /** A case's candidates in the order of its candidates file; undefined for a case not there. */
  candidates(kase: string): readonly ContextCandidate[] | undefined;
}

type Json = Record<string, unknown>;
const places = new WeakMap<readonly ContextCandidate[], Map<string, number>>();

function placeOf(cands: readonly ContextCandidate[], id: unknown): number | undefined {
  let map = places.get(cands);
  if (map === undefined) {
    map = new Map(cands.map((c, k) => [c.candidate_id, k]));
    places.set(cands, map);
  }
  return typeof id === 'string' ? map.get(id) : undefined;
}

/** Candidate n as the harness's bundle writes it at `position` (compiler/render.ts, buildBundle). */
const itemOf = (c: ContextCandidate, position: number, tokenCount: unknown): Json =>
  // A count that is not a number is compared as it is, and never matches: the item stays whole.
  bundleItem(c, position, tokenCount as number);

/** A trace entry of candidate c, in the order the compiler writes one (v2). */
function entryOf(c: ContextCandidate, word: readonly unknown[], row: readonly unknown[]): Json {
  const [, , marginal_cost, budget_before, budget_after, position, closure = [], pulled = []] = row;
  const [decision, reason_code, reason_detail] = word;
  return {
    candidate_id: c.candidate_id,
    content_identity: c.content_identity,
    representation_id: c.representation_id,
    decision,
    reason_code,
    reason_detail,
    priority_band: c.requirement,
    relevance: c.relevance,
    marginal_cost,
    dependency_closure: closure,
    pulled_in_by: pulled,
    budget_before,
    budget_after,
    position,
  };
}

/**
 * Equal as JSON texts: the same keys in the same order, the same values. Walked first, which needs
 * no text (a compilation's line holds its bundle's every text, and a trace entry per candidate: a
 * third of a SWE-bench cell's time went to writing both sides out); where the walk finds a
 * difference, the texts decide, so a value that serialises alike (a NaN and a null, a key whose
 * value is undefined and none) is the same as before.
 */
function equalWalk(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const y = b as unknown[];
    if (a.length !== y.length) return false;
    for (let i = 0; i < a.length; i++) if (!equalWalk(a[i], y[i])) return false;
    return true;
  }
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  for (let i = 0; i < ka.length; i++) {
    const k = ka[i] as string;
    if (k !== kb[i] || !equalWalk((a as Json)[k], (b as Json)[k])) return false;
  }
  return true;
}

const same = (a: unknown, b: unknown) => equalWalk(a, b) || JSON.stringify(a) === JSON.stringify(b);

/** The keys of a trace entry as `entryOf` writes them, in its order. */
const ENTRY_KEYS = Object.keys(entryOf({} as ContextCandidate, [], []));

/**
 * Whether entry `e` is what `entryOf(c, word, row)` makes of it, where the word and the row were
 * taken from `e` itself: its keys in entryOf's order, the candidate's own fields, lists for its
 * dependency closure and pulled-in-by. A cell of a large pool has an entry per candidate, and
 * this asks no object built; what it cannot tell, `same` decides.
 */
function entryIs(c: ContextCandidate, e: Json): boolean {
  let n = 0;
  for (const k in e) if (k !== ENTRY_KEYS[n++]) return false;
  return (
    n === ENTRY_KEYS.length &&
    e.candidate_id === c.candidate_id &&
    e.content_identity === c.content_identity &&
    e.representation_id === c.representation_id &&
    e.priority_band === c.requirement &&
    e.relevance === c.relevance &&
    Array.isArray(e.dependency_closure) &&
    Array.isArray(e.pulled_in_by)
  );
}

/** The key of a trace entry's words: three strings joined, or their JSON. */
const wordKey = (word: readonly unknown[]): string =>
  word.every((w) => typeof w === 'string' && !w.includes('\u0000'))
    ? word.join('\u0000')
    : JSON.stringify(word);

function packBundle(b: Json, cands: readonly ContextCandidate[]): Json {
  const items = (b.items as unknown[]).map((item, k) => {
    const n = isPlainObject(item) ? placeOf(cands, item.id) : undefined;
    const c = n === undefined ? undefined : cands[n];
    return c !== undefined && isPlainObject(item) && same(itemOf(c, k, item.token_count), item)
      ? [n, item.token_count]
      : item;
  });
  const trace = Array.isArray(b.layout_trace)
    ? b.layout_trace.map((id) => placeOf(cands, id) ?? id)
    : b.layout_trace;
  return { ...b, items, layout_trace: trace };
}

function unpackBundle(b: Json, cands: readonly ContextCandidate[]): Json {
  const at = (n: unknown) => (typeof n === 'number' ? cands[n] : undefined);
  const items = (b.items as unknown[]).map((item, k) => {
    const c = Array.isArray(item) ? at(item[0]) : undefined;
    if (Array.isArray(item) && c === undefined) throw new Error(`bundle item ${k} names no candidate`);
    return c === undefined ? item : itemOf(c, k, (item as unknown[])[1]);
  });
  const trace = Array.isArray(b.layout_trace)
    ? b.layout_trace.map((n) => at(n)?.candidate_id ?? n)
    : b.layout_trace;
  return { ...b, items, layout_trace: trace };
}

function packEntries(entries: readonly unknown[], cands: readonly ContextCandidate[]): Json {
  const words: unknown[][] = [];
  const index = new Map<string, number>();
  const rows = entries.map((e) => {
    const n = isPlainObject(e) ? placeOf(cands, e.candidate_id) : undefined;
    const c = n === undefined ? undefined : cands[n];
    if (c === undefined || !isPlainObject(e)) return e;
    const word = [e.decision, e.reason_code, e.reason_detail];
    const key = wordKey(word);
    const w = index.get(key) ?? words.length;
    const deps =
      Array.isArray(e.dependency_closure) && Array.isArray(e.pulled_in_by)
        ? [e.dependency_closure, e.pulled_in_by]
        : [];
    const row = [n, w, e.marginal_cost, e.budget_before, e.budget_after, e.position];
    if (deps.some((d) => (d as unknown[]).length > 0)) row.push(...deps);
    if (!entryIs(c, e) && !same(entryOf(c, word, row), e)) return e;
    if (w === words.length) {
      index.set(key, w);
      words.push(word);
    }
    return row;
  });
  return { words, rows };
}

function unpackEntries(packed: Json, cands: readonly ContextCandidate[]): unknown[] {
  const words = packed.words as unknown[][];
  return (packed.rows as unknown[]).map((row, k) => {
    if (!Array.isArray(row)) return row;
    const c = cands[row[0] as number];
    const word = words[row[1] as number];
    if (c === undefined || word === undefined) throw new Error(`trace entry ${k} names no candidate or word`);
    return entryOf(c, word, row);
  });
}

function packResult(r: Json, cands: readonly ContextCandidate[]): Json {
  const trace = r.trace;
  if (!isPlainObject(trace) || !Array.isArray(trace.entries)) return r;
  return { ...r, trace: { ...trace, entries: packEntries(trace.entries, cands) } };
}

/**
 * `packed` with its result's trace entries as they were before packing, for the check that the
 * rest of the line reads back: each entry packed was checked against its own as it was packed
 * (entryIs, same), and an entry left as it was is read back as itself, unless it is a list, which
 * reads as a packed row (then the whole line is checked, entries too).
 */
function withEntriesOf(packed: Json, line: CompilationLine): Json {
  const r = line.result as unknown;
  const trace = isPlainObject(r) ? r.trace : undefined;
  const p = packed.result;
  if (!isPlainObject(trace) || !Array.isArray(trace.entries) || !isPlainObject(p) || !isPlainObject(p.trace))
    return packed;
  if (trace.entries.some((e) => Array.isArray(e))) return packed;
  return { ...packed, result: { ...p, trace: { ...p.trace, entries: trace.entries } } };
}

function unpackResult(r: Json, cands: readonly ContextCandidate[]): Json {
  const trace = r.trace;
  if (!isPlainObject(trace) || !isPlainObject(trace.entries)) return r;
  return { ...r, trace: { ...trace, entries: unpackEntries(trace.entries, cands) } };
}

/**
 * A line as the study compiled it, from a line as compilations.jsonl holds it: a line by
 * reference read back against `texts`, any other as it is. Throws an Error saying why a line by
 * reference cannot be read (no corpus, another corpus, a case or candidate it lacks).
 */
export function expandLine(line: Json, texts: RunTexts | null): Json {
  if (line.by_reference === undefined) return line;
  if (texts === null) throw new Error('its texts are by reference to a corpus, and no corpus is at hand');
  if (line.by_reference !== texts.digest)
    throw new Error(`its texts are by reference to corpus ${String(line.by_reference)}, not ${texts.digest}`);
  const cands = texts.candidates(String(line.case));
  if (cands === undefined) throw new Error(`the corpus has no case "${String(line.case)}"`);
  const { by_reference: _digest, ...rest } = line;
  const bundle = isPlainObject(line.bundle) ? unpackBundle(line.bundle, cands) : line.bundle;
  return {
    ...rest,
    bundle,
    result: isPlainObject(line.result) ? unpackResult(line.result, cands) : line.result,
    rendered_text: isPlainObject(bundle)
      ? renderBundleText(bundle as unknown as ContextBundle, texts.frame)
      : line.rendered_text,
  };
}

/**
 * The line compilations.jsonl holds for a compilation of an ingested corpus: by reference to
 * `texts`, or as it is when it would not read back to the same bytes.
 */
export function byReference(line: CompilationLine, texts: RunTexts): CompilationLine {
  const cands = texts.candidates(line.case);
  if (cands === undefined) return line;
  const { case: kase, budget, strategy, bundle, result, ...rest } = line;
  const packed = {
    case: kase,
    budget,
    strategy,
    by_reference: texts.digest,
    bundle: isPlainObject(bundle) ? packBundle(bundle, cands) : bundle,
    result: isPlainObject(result) ? packResult(result, cands) : result,
    ...rest,
    rendered_text: null,
  };
  try {
    return same(expandLine(withEntriesOf(packed, line), texts), line) ? (packed as CompilationLine) : line;
  } catch {
    return line;
  }
}

/**
 * Line `line` of `file`, parsed, as the study compiled it: read back against `texts` when it holds
 * its texts by reference, else as it is. A line that cannot be read back stops the read (exit 2),
 * naming the file, the line and why.
 */
export function readBack(file: string, line: number, value: unknown, texts: RunTexts | null): unknown {
  if (!isPlainObject(value) || value.by_reference === undefined) return value;
  try {
    return expandLine(value, texts);
  } catch (e) {
    if (e instanceof InputError) throw e;
    throw new InputError(file, (e as Error).message, `line ${line}`);
  }
}
