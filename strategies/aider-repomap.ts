/**
 * Peer `aider-repomap`: Aider's RepoMap (aider/repomap.py, `get_ranked_tags` and
 * `get_ranked_tags_map_uncached`, Aider-AI/aider at 5dc9490bb35f9729ef2c95d00a19ccd30c26339c,
 * May 2026), run on a ctxbench pool. PageRank is graphology-metrics 2.4.2 on a graphology 0.26.0
 * MultiDirectedGraph.
 *
 * Pool to Aider's input:
 * - a content identity is a file: its fullest form is the file's text, its name the file name;
 * - the candidates the request names (`required_ids`) are the chat files: sent whole (fullest
 *   form), left out of the map, personalised, and their references weigh x50;
 * - the `task`-role candidates are the user's message, not files: always sent (fullest form),
 *   outside the graph; its `\W+` words are the mentioned identifiers (`get_ident_mentions`) and
 *   its whitespace words, stripped as `get_file_mentions` strips them, that equal a file name are
 *   the mentioned files;
 * - tags: a file defines its name, its candidate ids, its coverage keys and, where the pool has
 *   an `outline` form (`ctxbench ingest` and `pack` make them from tree-sitter, as Aider's tags
 *   come from tree-sitter), the names its declarations declare; it references every identifier
 *   token of its text (counted, as Pygments' Name tokens are) and the candidate id of each
 *   `depends_on` of any of its forms;
 * - Aider shows definitions, not files: a map entry is the identity's outline, anchor or summary
 *   form where the pool has one, else its default form;
 * - Aider's `token_count(tree) vs max_map_tokens` becomes the study's rendered cost of the whole
 *   bundle (chat files and map) against the usable budget, so the 15% tolerance applies to what
 *   the harness measures.
 * Layout (`layout: 'own'`): Aider's prompt order (base_coder's format_messages), the map first,
 * its files sorted by name as `to_tree` sorts its tags, then the chat files in the request's
 * order, then the message.
 * Cannot express, so ignores: requirement classes (a MANDATORY item can rank out of the map),
 * the hard gates (scope, freshness, authority), form floors, groups, dependency closure (a
 * `depends_on` only adds rank), and relevance. Not reproduced: the README-style "important files"
 * prepended to the map, `map_mul_no_files` (the budget already is the whole context), caching.
 * Personalised PageRank: graphology-metrics has no personalisation vector, so the walk runs on
 * the graph plus one teleport node (every file steps to it with 1 - alpha, a dangling file always,
 * and it steps to the files by the personalisation, with a self-loop so the chain is aperiodic)
 * at alpha = 1; restricted to the files and renormalised, that stationary distribution is exactly
 * networkx's pagerank(personalization = dangling = p).
 */
import { MultiDirectedGraph } from 'graphology';
import pagerankModule from 'graphology-metrics/centrality/pagerank.js';
import { type ContextCandidate, costOf, defaultFormPool, type Strategy } from '../src/harness/kit/index.js';

// The package is CommonJS (`module.exports = pagerank`) with ES-style typings: under NodeNext the
// default import is the function at run time but typed as the namespace.
const pagerank = pagerankModule as unknown as typeof pagerankModule.default;

const ALPHA = 0.85;
const OK_ERR = 0.15;
const MAP_FORMS = ['outline', 'anchor', 'summary'];
const TELEPORT = '\u0000teleport';

interface File {
  readonly name: string;
  readonly forms: readonly ContextCandidate[];
  readonly shown: ContextCandidate;
  readonly whole: ContextCandidate;
}

/** A ranked tag: (file, ident) for a definition, (file) for a file with no ranked definition. */
type Tag = readonly [string, string?];

const identTokens = (text: string): string[] => text.match(/[A-Za-z_]\w*(?:-\w+)*/g) ?? [];
/** How many of its ranked files the answer lists. */
const RANKED = 100;
const byCode = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

function filesOf(candidates: readonly ContextCandidate[]): Map<string, File> {
  const groups = new Map<string, ContextCandidate[]>();
  for (const c of candidates) groups.set(c.content_identity, [...(groups.get(c.content_identity) ?? []), c]);
  const defaults = new Map(defaultFormPool(candidates).map((c) => [c.content_identity, c]));
  const files = new Map<string, File>();
  for (const name of [...groups.keys()].sort(byCode)) {
    const forms = [...(groups.get(name) ?? [])].sort((a, b) => byCode(a.candidate_id, b.candidate_id));
    const whole = forms.reduce((a, b) => (b.form_rank > a.form_rank ? b : a));
    const outline = MAP_FORMS.map((r) => forms.find((c) => c.representation_id === r)).find((c) => c);
    files.set(name, { name, forms, whole, shown: outline ?? defaults.get(name) ?? whole });
  }
  return files;
}

/** Aider's identifier weight (`mul`), before the x50 for references from chat files. */
export function identWeight(ident: string, mentioned: ReadonlySet<string>, definers: number): number {
  const alpha = /[A-Za-z]/.test(ident);
  const isSnake = ident.includes('_') && alpha;
  const isKebab = ident.includes('-') && alpha;
  const isCamel = /[A-Z]/.test(ident) && /[a-z]/.test(ident);
  let mul = 1.0;
  if (mentioned.has(ident)) mul *= 10;
  if ((isSnake || isKebab || isCamel) && ident.length >= 8) mul *= 10;
  if (ident.startsWith('_')) mul *= 0.1;
  if (definers > 5) mul *= 0.1;
  return mul;
}

/** networkx's pagerank(G, personalization = dangling = pers) through graphology-metrics. */
function personalRank(g: MultiDirectedGraph, pers: ReadonlyMap<string, number>): Map<string, number> {
  if (g.order === 0) return new Map();
  if (pers.size === 0) return new Map(Object.entries(pagerank(g, { alpha: ALPHA, getEdgeWeight: 'weight' })));
  const walk = new MultiDirectedGraph();
  walk.addNode(TELEPORT);
  const total = [...pers.values()].reduce((a, b) => a + b, 0);
  g.forEachNode((n) => walk.addNode(n));
  g.forEachNode((n) => {
    const out = g.outEdges(n).reduce((s, e) => s + (g.getEdgeAttribute(e, 'weight') as number), 0);
    g.forEachOutEdge(n, (_e, attrs, _s, target) => {
      walk.addDirectedEdge(n, target, { weight: (ALPHA * attrs.weight) / out });
    });
    walk.addDirectedEdge(n, TELEPORT, { weight: out > 0 ? 1 - ALPHA : 1 });
  });
  for (const [n, v] of pers) walk.addDirectedEdge(TELEPORT, n, { weight: v / total });
  walk.addDirectedEdge(TELEPORT, TELEPORT, { weight: 1 });
  const x = pagerank(walk, { alpha: 1, getEdgeWeight: 'weight', maxIterations: 10_000, tolerance: 1e-9 });
  const mass = 1 - (x[TELEPORT] ?? 0);
  return new Map(g.nodes().map((n) => [n, (x[n] ?? 0) / mass]));
}

/**
 * A declaration's name after its keyword, in an outline's `<line>: <header>` lines. The space
 * after the keyword is one run, then at most a `*` and another run: two runs side by side that
 * could both take the same spaces would make a long run of spaces cost time quadratic in it.
 */
const DECLARED =
  /\b(?:function|class|interface|type|enum|const|let|var|def|fn|struct|trait|mod|func|namespace)\s+(?:\*\s*)?([A-Za-z_$][\w$]*)/g;

/** The names an outline form declares: Aider's `def` tags, where the pool has them. */
const declaredNames = (c: ContextCandidate): string[] =>
  c.representation_id === 'outline' ? [...c.content.matchAll(DECLARED)].map((m) => m[1] as string) : [];

/**
 * `word` without the run of `chars` at its end (and at its start when `both`): the loop that
 * /[...]+$/ stands for, in one pass where the regular expression is quadratic on a long run.
 */
function trimmed(word: string, chars: string, both: boolean): string {
  let start = 0;
  let end = word.length;
  while (end > start && chars.includes(word[end - 1] as string)) end--;
  while (both && start < end && chars.includes(word[start] as string)) start++;
  return word.slice(start, end);
}

/** `get_ranked_tags`: the ranked definitions, then the files by rank, then the rest by name. */
function rankedTags(
  files: ReadonlyMap<string, File>,
  chat: ReadonlySet<string>,
  message: readonly string[],
): Tag[] {
  const mentionedIdents = new Set(message.flatMap((t) => t.split(/\W+/)));
  const words = new Set(
    message.flatMap((t) => t.split(/\s+/)).map((w) => trimmed(trimmed(w, ',.!;:?', false), '"\'`*_', true)),
  );
  const defines = new Map<string, Set<string>>();
  const references = new Map<string, string[]>();
  const personalize = 100 / files.size;
  const pers = new Map<string, number>();
  for (const f of files.values()) {
    let p = chat.has(f.name) ? personalize : 0;
    if (words.has(f.name)) p = Math.max(p, personalize);
    if (mentionedIdents.has(f.name)) p += personalize;
    if (p > 0) pers.set(f.name, p);
    for (const d of [
      f.name,
      ...f.forms.flatMap((c) => [c.candidate_id, ...c.coverage_keys, ...declaredNames(c)]),
    ]) {
      defines.set(d, (defines.get(d) ?? new Set()).add(f.name));
    }
    // Appended in place: copying the list at each reference made a common name (`self`, a few
    // hundred thousand references in a large repository) cost the square of its count.
    for (const r of [...identTokens(f.whole.content), ...f.forms.flatMap((c) => c.depends_on)]) {
      const list = references.get(r);
      if (list === undefined) references.set(r, [f.name]);
      else list.push(f.name);
    }
  }
  const refs = references.size > 0 ? references : new Map([...defines].map(([k, v]) => [k, [...v]]));
  const g = new MultiDirectedGraph();
  for (const f of files.keys()) g.addNode(f);
  for (const [ident, definers] of [...defines].sort(([a], [b]) => byCode(a, b))) {
    if (refs.has(ident)) continue;
    for (const d of definers) g.addDirectedEdge(d, d, { weight: 0.1, ident });
  }
  for (const [ident, referencers] of [...refs].sort(([a], [b]) => byCode(a, b))) {
    const definers = defines.get(ident);
    if (definers === undefined) continue;
    const mul = identWeight(ident, mentionedIdents, definers.size);
    const counts = new Map<string, number>();
    for (const r of referencers) counts.set(r, (counts.get(r) ?? 0) + 1);
    for (const [referencer, n] of counts) {
      for (const definer of definers) {
        const weight = (chat.has(referencer) ? mul * 50 : mul) * Math.sqrt(n);
        g.addDirectedEdge(referencer, definer, { weight, ident });
      }
    }
  }
  // Aider adds only the files that have tags to its graph; an isolated file has none.
  g.forEachNode((n) => {
    if (g.degree(n) === 0) g.dropNode(n);
  });
  const ranked = personalRank(g, new Map([...pers].filter(([n]) => g.hasNode(n))));
  const definitions = new Map<string, { file: string; ident: string; rank: number }>();
  g.forEachNode((src) => {
    const out = g.outEdges(src).reduce((s, e) => s + (g.getEdgeAttribute(e, 'weight') as number), 0);
    g.forEachOutEdge(src, (_e, a, _s, dst) => {
      const key = `${dst}\u0000${a.ident}`;
      const prior = definitions.get(key)?.rank ?? 0;
      definitions.set(key, {
        file: dst,
        ident: a.ident,
        rank: prior + ((ranked.get(src) ?? 0) * a.weight) / out,
      });
    });
  });
  const tags: Tag[] = [...definitions.values()]
    .sort((a, b) => b.rank - a.rank || byCode(b.file, a.file) || byCode(b.ident, a.ident))
    .filter((d) => !chat.has(d.file))
    .map((d) => [d.file, d.ident]);
  const included = new Set(tags.map((t) => t[0]));
  const rest = new Set([...files.keys()].filter((f) => !chat.has(f)));
  for (const [node] of [...ranked].sort(([a, x], [b, y]) => y - x || byCode(b, a))) {
    rest.delete(node);
    if (!included.has(node)) tags.push([node]);
  }
  for (const f of [...rest].sort(byCode)) tags.push([f]);
  return tags;
}

const aiderRepomap: Strategy = {
  name: 'aider-repomap',
  description:
    "Aider's repo map: personalised PageRank over identifier references, binary search within 15% of the budget",
  assemble(input) {
    const all = filesOf(input.candidates);
    const message = [...all.values()].filter((f) => f.forms.some((c) => c.order_role === 'task'));
    const files = new Map([...all].filter(([, f]) => !message.includes(f)));
    const byId = new Map(input.candidates.map((c) => [c.candidate_id, c.content_identity]));
    const chatNames = [...new Set(input.request.required_ids.flatMap((id) => byId.get(id) ?? []))];
    const chat = new Set(chatNames);
    const tags = rankedTags(
      files,
      chat,
      message.map((f) => f.whole.content),
    );
    const chatForms = [
      ...chatNames.flatMap((n) => files.get(n)?.whole ?? []),
      ...message.map((f) => f.whole),
    ];
    const bundle = (middle: number): ContextCandidate[] => {
      const names = [...new Set(tags.slice(0, middle).map((t) => t[0]))]
        .filter((n) => !chat.has(n))
        .sort(byCode);
      return [...names.flatMap((n) => files.get(n)?.shown ?? []), ...chatForms];
    };
    // get_ranked_tags_map_uncached's search, tolerance and all: it may stop up to 15% over.
    let [lower, upper, best, bestTokens, steps] = [0, tags.length, chatForms, 0, 0];
    let middle = Math.min(Math.floor(input.budget / 25), tags.length);
    while (lower <= upper && input.budget > 0) {
      steps += 1;
      const tree = bundle(middle);
      const tokens = costOf(tree, input);
      const pctErr = Math.abs(tokens - input.budget) / input.budget;
      if ((tokens <= input.budget && tokens > bestTokens) || pctErr < OK_ERR) {
        [best, bestTokens] = [tree, tokens];
        if (pctErr < OK_ERR) break;
      }
      if (tokens < input.budget) lower = middle + 1;
      else upper = middle - 1;
      middle = Math.floor((lower + upper) / 2);
    }
    return {
      admitted: best.map((c) => c.candidate_id),
      layout: 'own',
      extras: {
        // The files in the order the map ranks them (first by their best tag), as the measures
        // read a strategy's ranking; and the best tags themselves.
        ranked: [...new Set(tags.map((t) => t[0]))].slice(0, RANKED),
        ranked_tags: tags.slice(0, 50).map((t) => t.join('#')),
        search_steps: steps,
        tokens: costOf(best, input),
      },
    };
  },
};

export default aiderRepomap;
