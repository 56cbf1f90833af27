/**
 * Aider's ranking of a pool's files, shared by the peers `aider-repomap` (the map) and
 * `aider-files` (the files an Aider user adds once the model asks for them): aider/repomap.py's `get_tags_raw` and
 * `get_ranked_tags`, with what aider/coders/base_coder.py feeds them (docs/peers.md), and the
 * prompt as Aider sends it beside the map: the system prompt, the chat files and the message.
 */
import { DirectedGraph } from 'graphology';
import type { ContextCandidate } from '../../compiler/index.js';
import type { StrategyInput } from '../types.js';
import { basename, mentionsOf, push, splitextRoot } from './aider-mentions.js';
import queries from './aider-tags.json' with { type: 'json' };
import { defaultFormPool } from './baselines.js';
import { sourceText } from './bm25.js';
import { type Capture, personalPagerank, queryRunner } from './repo-graph.js';

const runTags = await queryRunner(queries.tags);
const runNames = await queryRunner(queries.names);

const MAP_FORMS = ['outline', 'anchor', 'summary'];
export const byCode = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

export interface File {
  readonly name: string;
  readonly forms: readonly ContextCandidate[];
  readonly whole: ContextCandidate;
  /** The map's entry for the file's ranked definitions. */
  readonly shown: ContextCandidate;
  /** The file listed by its name, where the pool has such a form. */
  readonly named: ContextCandidate | undefined;
}

interface FileTags {
  readonly defs: readonly Capture[];
  readonly refs: readonly string[];
}

/** A ranked tag (`Tag` or `(fname,)`): a file's definition of an identifier at a line, or the file alone. */
export type RankedTag = readonly [file: string, ident?: string, line?: number];

export function filesOf(candidates: readonly ContextCandidate[]): Map<string, File> {
  const groups = new Map<string, ContextCandidate[]>();
  for (const c of candidates) push(groups, c.content_identity, c);
  const defaults = new Map(defaultFormPool(candidates).map((c) => [c.content_identity, c]));
  const files = new Map<string, File>();
  for (const name of [...groups.keys()].sort(byCode)) {
    const forms = [...(groups.get(name) ?? [])].sort((a, b) => byCode(a.candidate_id, b.candidate_id));
    const whole = forms.reduce((a, b) => (b.form_rank > a.form_rank ? b : a));
    const outline = MAP_FORMS.map((r) => forms.find((c) => c.representation_id === r)).find((c) => c);
    const named = forms.find((c) => c.representation_id === 'reference');
    const fallback = defaults.get(name) === named ? whole : defaults.get(name);
    files.set(name, { name, forms, whole, shown: outline ?? fallback ?? whole, named });
  }
  return files;
}

// The last rankings, what each was made of and its files' tags: the study asks for each pool at
// three budgets, and the ranking does not depend on the budget. More than one, because this module
// serves two strategies in one process (issue 39: the shipped strategies share one), which a study
// asks in turn on the same case: the peer on the whole pool and behind the gates on a part of it.
// A new ranking reuses the tags of a file whose text one of these had (the gates' part, the next
// case of the same repository); nothing else is kept, so a warm process holds the texts of RECENT
// calls at most, however many calls and file names it has seen (issue 47). Two: a case's first
// ranking finds the last case's two, its second the first's, and a process holds one case's
// pool besides the one it is asked about.
const RECENT = 2;
/** A file's tags and the text they were made from. */
type Tagged = { readonly text: string; readonly tags: FileTags | undefined };
const recent: {
  readonly files: ReadonlyMap<string, File>;
  readonly key: string;
  readonly tags: RankedTag[];
  readonly tagged: ReadonlyMap<string, Tagged>;
}[] = [];

/**
 * `get_tags_raw`: definitions and references from the file's query, or none without one; noted in
 * `made`. Read from the file as Aider reads it from disk: the pool's label line is not the file's.
 */
function tagsFor(f: File, made: Map<string, Tagged>): FileTags | undefined {
  const text = sourceText(f.whole);
  let t = recent.map((r) => r.tagged.get(f.name)).find((had) => had?.text === text);
  if (t === undefined) {
    const captures = runTags(f.name, text);
    const of = (kind: string) => (captures ?? []).filter((c) => c.capture.startsWith(`name.${kind}.`));
    const [defs, refs] = [of('definition'), of('reference')];
    // Definitions and no reference: every name of the text is one (Aider's Pygments fallback).
    const names = refs.length === 0 && defs.length > 0 ? (runNames(f.name, text) ?? []) : refs;
    t = { text, tags: captures === undefined ? undefined : { defs, refs: names.map((c) => c.text) } };
  }
  made.set(f.name, t);
  return t.tags;
}

/** Aider's identifier weight (`mul`), before the x50 for references from chat files. */
export function identWeight(ident: string, mentioned: ReadonlySet<string>, definers: number): number {
  const alpha = /\p{L}/u.test(ident);
  const isSnake = ident.includes('_') && alpha;
  const isKebab = ident.includes('-') && alpha;
  const isCamel = /\p{Lu}/u.test(ident) && /\p{Ll}/u.test(ident);
  let mul = 1.0;
  if (mentioned.has(ident)) mul *= 10;
  if ((isSnake || isKebab || isCamel) && ident.length >= 8) mul *= 10;
  if (ident.startsWith('_')) mul *= 0.1;
  if (definers > 5) mul *= 0.1;
  return mul;
}

/** `get_ranked_tags`: the ranked definitions, then the files by rank, then the rest. */
function rankedTags(
  files: ReadonlyMap<string, File>,
  chat: ReadonlySet<string>,
  message: string,
  tagsOf: (f: File) => FileTags | undefined,
): RankedTag[] {
  const names = [...files.keys()];
  const mentioned = mentionsOf(message, names, chat);
  const defines = new Map<string, Set<string>>();
  const definitions = new Map<string, number[]>();
  const references = new Map<string, string[]>();
  const personalize = 100 / files.size;
  const pers = new Map<string, number>();
  for (const f of files.values()) {
    let p = chat.has(f.name) ? personalize : 0;
    if (mentioned.files.has(f.name)) p = Math.max(p, personalize);
    const base = basename(f.name);
    const components = [...f.name.split('/').filter((c) => c !== ''), base, splitextRoot(base)];
    if (components.some((c) => mentioned.idents.has(c))) p += personalize;
    if (p > 0) pers.set(f.name, p);
    const tags = tagsOf(f);
    for (const d of tags?.defs ?? []) {
      defines.set(d.text, (defines.get(d.text) ?? new Set()).add(f.name));
      push(definitions, `${f.name}\u0000${d.text}`, d.line);
    }
    for (const r of tags?.refs ?? []) push(references, r, f.name);
  }
  const refs = references.size > 0 ? references : new Map([...defines].map(([k, v]) => [k, [...v]]));
  // Aider's MultiDiGraph as a list of edges, which the ranks of definitions read one by one, and
  // for PageRank one edge per pair of files weighing their sum, as networkx's pagerank sums them.
  const edges: {
    readonly src: string;
    readonly dst: string;
    readonly weight: number;
    readonly ident: string;
  }[] = [];
  for (const [ident, definers] of [...defines].sort(([a], [b]) => byCode(a, b))) {
    if (refs.has(ident)) continue;
    for (const d of definers) edges.push({ src: d, dst: d, weight: 0.1, ident });
  }
  for (const [ident, referencers] of [...refs].sort(([a], [b]) => byCode(a, b))) {
    const definers = defines.get(ident);
    if (definers === undefined) continue;
    const mul = identWeight(ident, mentioned.idents, definers.size);
    const counts = new Map<string, number>();
    for (const r of referencers) counts.set(r, (counts.get(r) ?? 0) + 1);
    for (const [src, n] of counts)
      for (const dst of definers)
        edges.push({ src, dst, weight: (chat.has(src) ? mul * 50 : mul) * Math.sqrt(n), ident });
  }
  const pairs = new Map<string, number>();
  const out = new Map<string, number>();
  for (const e of edges) {
    const pair = `${e.src}\u0000${e.dst}`;
    pairs.set(pair, (pairs.get(pair) ?? 0) + e.weight);
    out.set(e.src, (out.get(e.src) ?? 0) + e.weight);
  }
  // Aider's graph holds only the files an edge touches.
  const g = new DirectedGraph();
  const touched = new Set(edges.flatMap((e) => [e.src, e.dst]));
  for (const n of names) if (touched.has(n)) g.addNode(n);
  for (const [pair, weight] of pairs) {
    const [src, dst] = pair.split('\u0000') as [string, string];
    g.addDirectedEdge(src, dst, { weight });
  }
  const ranked = personalPagerank(g, new Map([...pers].filter(([n]) => g.hasNode(n))), 0.85);
  const rankOf = new Map<string, { file: string; ident: string; rank: number }>();
  for (const e of edges) {
    const key = `${e.dst}\u0000${e.ident}`;
    const prior = rankOf.get(key)?.rank ?? 0;
    const share = ((ranked.get(e.src) ?? 0) * e.weight) / (out.get(e.src) as number);
    rankOf.set(key, { file: e.dst, ident: e.ident, rank: prior + share });
  }
  const tags: RankedTag[] = [...rankOf.entries()]
    .sort(([, a], [, b]) => b.rank - a.rank || byCode(b.file, a.file) || byCode(b.ident, a.ident))
    .filter(([, d]) => !chat.has(d.file))
    .flatMap(([key, d]) => (definitions.get(key) ?? []).map((line): RankedTag => [d.file, d.ident, line]));
  const included = new Set(tags.map((t) => t[0]));
  const rest = new Set(names.filter((f) => !chat.has(f)));
  for (const [node] of [...ranked].sort(([a, x], [b, y]) => y - x || byCode(b, a))) {
    rest.delete(node);
    if (!included.has(node)) tags.push([node]);
  }
  // Aider walks a set here, in no fixed order; by name is the fixed one.
  for (const f of [...rest].sort(byCode)) tags.push([f]);
  return tags;
}

export function rankedOnce(
  files: ReadonlyMap<string, File>,
  chat: ReadonlySet<string>,
  message: string,
): RankedTag[] {
  const key = JSON.stringify([[...chat], message]);
  const same = (prior: (typeof recent)[number]) =>
    prior.key === key &&
    prior.files.size === files.size &&
    [...files].every(([n, f]) => prior.files.get(n)?.whole.content === f.whole.content);
  const found = recent.find(same);
  if (found !== undefined) return found.tags;
  const tagged = new Map<string, Tagged>();
  const made = { files, key, tags: rankedTags(files, chat, message, (f) => tagsFor(f, tagged)), tagged };
  recent.unshift(made);
  recent.length = Math.min(recent.length, RECENT);
  return made.tags;
}

/** The prompt Aider sends beside the map, and the files it ranks. */
export interface AiderPrompt {
  /** Every other file, by name (the chat files among them: the ranking lists them, the map skips them). */
  readonly files: ReadonlyMap<string, File>;
  readonly chat: ReadonlySet<string>;
  readonly system: readonly ContextCandidate[];
  readonly chatForms: readonly ContextCandidate[];
  readonly message: readonly ContextCandidate[];
  /** The message's text, which the mentions are read from. */
  readonly text: string;
}

/**
 * The pool as Aider's input: the `instruction` contents are the system prompt, the `task` ones the
 * message, the contents `required_ids` names the chat files (all three sent whole), every other
 * content a file of the repository.
 */
export function aiderPrompt(input: StrategyInput): AiderPrompt {
  const all = filesOf(input.candidates);
  const roleOf = (f: File, role: string) => f.forms.some((c) => c.order_role === role);
  const system = [...all.values()].filter((f) => roleOf(f, 'instruction'));
  const message = [...all.values()].filter((f) => !system.includes(f) && roleOf(f, 'task'));
  const files = new Map([...all].filter(([, f]) => !system.includes(f) && !message.includes(f)));
  const byId = new Map(input.candidates.map((c) => [c.candidate_id, c.content_identity]));
  const chatNames = [...new Set(input.request.required_ids.flatMap((id) => byId.get(id) ?? []))].filter((n) =>
    files.has(n),
  );
  const sent = (fs: readonly File[]) => fs.map((f) => f.whole);
  return {
    files,
    chat: new Set(chatNames),
    system: sent(system),
    chatForms: sent(chatNames.flatMap((n) => files.get(n) ?? [])),
    message: sent(message),
    text: message.map((f) => f.whole.content).join('\n'),
  };
}
