/**
 * Code as a graph: the tree-sitter grammars of tree-sitter-wasms (run by web-tree-sitter, so
 * nothing is compiled at install), which `ingest` outlines with and a strategy may query as its
 * peer does (aider-repomap's tags); and PageRank with a personalisation vector, as networkx
 * computes it. Loaded only when asked for (`loadRepoGraph`): the grammars are WebAssembly.
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { type DirectedGraph, MultiDirectedGraph } from 'graphology';
import pagerankModule from 'graphology-metrics/centrality/pagerank.js';
import Parser from 'web-tree-sitter';
import { type Language, languageOf } from './languages.js';

export type SyntaxNode = Parser.SyntaxNode;

export interface Capture {
  readonly capture: string;
  readonly text: string;
  /** 0-based. */
  readonly line: number;
}

export interface Parsers {
  /**
   * `use` on the text's syntax tree, or `fallback` when the runtime fails (memory): tree-sitter
   * recovers from syntax errors itself, so no text makes this throw.
   */
  withTree<T>(language: Language, text: string, use: (root: SyntaxNode) => T, fallback: T): T;
  /**
   * The captures of a tree-sitter query (its S-expression source) on the text, in the order
   * web-tree-sitter gives them. A query the grammar cannot compile throws; the text never does.
   */
  captures(language: Language, text: string, query: string): Capture[];
}

const WASM: Readonly<Record<Language, string>> = {
  typescript: 'tree-sitter-typescript.wasm',
  tsx: 'tree-sitter-tsx.wasm',
  javascript: 'tree-sitter-javascript.wasm',
  python: 'tree-sitter-python.wasm',
  go: 'tree-sitter-go.wasm',
  rust: 'tree-sitter-rust.wasm',
};

let loading: Promise<Parsers> | undefined;

/** The six grammars, loaded once per process (web-tree-sitter's runtime may be initialised once). */
export function loadParsers(): Promise<Parsers> {
  if (loading === undefined) {
    loading = load();
    // A failed load (a missing wasm file) is not remembered, so that a later call can report it again.
    loading.catch(() => {
      loading = undefined;
    });
  }
  return loading;
}

async function load(): Promise<Parsers> {
  const out = join(dirname(createRequire(import.meta.url).resolve('tree-sitter-wasms/package.json')), 'out');
  await Parser.init();
  const parsers = new Map<Language, Parser>();
  for (const language of Object.keys(WASM) as Language[]) {
    const parser = new Parser();
    parser.setLanguage(await Parser.Language.load(join(out, WASM[language])));
    parsers.set(language, parser);
  }
  // The last tree parsed, kept until another text comes: ingest asks for a version's outline and
  // then its imports, and parsing each text once instead of twice was a fifth of a large ingest.
  let last: { readonly language: Language; readonly text: string; readonly tree: Parser.Tree } | undefined;
  const withTree = <T>(language: Language, text: string, use: (root: SyntaxNode) => T, fallback: T): T => {
    const parser = parsers.get(language);
    if (parser === undefined) return fallback;
    try {
      if (last === undefined || last.language !== language || last.text !== text) {
        // The tree lives in the wasm heap, which JavaScript's collector never frees.
        last?.tree.delete();
        last = undefined;
        last = { language, text, tree: parser.parse(text) };
      }
      return use(last.tree.rootNode);
    } catch {
      last?.tree.delete();
      last = undefined;
      return fallback;
    }
  };
  // Compiled once per grammar and source: a query compiles in about as long as a file parses.
  const queries = new Map<string, Parser.Query>();
  const queryOf = (language: Language, source: string): Parser.Query => {
    const key = `${language}\u0000${source}`;
    let query = queries.get(key);
    if (query === undefined) {
      query = (parsers.get(language) as Parser).getLanguage().query(source);
      queries.set(key, query);
    }
    return query;
  };
  return {
    withTree,
    captures: (language, text, source) => {
      const query = queryOf(language, source);
      const row = (c: Parser.QueryCapture) => ({
        capture: c.name,
        text: c.node.text,
        line: c.node.startPosition.row,
      });
      return withTree(language, text, (root) => query.captures(root).map(row), []);
    },
  };
}

// The package is CommonJS (`module.exports = pagerank`) with ES-style typings: under NodeNext the
// default import is the function at run time but typed as the namespace.
const pagerank = pagerankModule as unknown as typeof pagerankModule.default;

/**
 * A file's captures under the query written for its language, or undefined when its extension
 * names no grammar here or the strategy wrote no query for that grammar.
 */
export type QueryRunner = (path: string, text: string) => readonly Capture[] | undefined;

/** `queries`: a query source per grammar name (`python`, `typescript`, `tsx`, `javascript`, `go`, `rust`). */
export async function queryRunner(queries: Readonly<Record<string, string>>): Promise<QueryRunner> {
  const grammars = await loadParsers();
  return (path, text) => {
    const language = languageOf(path);
    const query = language === null ? undefined : queries[language];
    return language === null || query === undefined ? undefined : grammars.captures(language, text, query);
  };
}

const TELEPORT = '\u0000teleport';

/**
 * networkx's pagerank(g, alpha, weight = 'weight', personalization = dangling = pers), nodes
 * absent from `pers` weighing 0, an empty `pers` being the uniform one. graphology-metrics has no
 * personalisation vector, so the walk runs on `g` plus one teleport node (each node steps to it
 * with 1 - alpha, a dangling one always; it steps to the nodes by `pers`, and to itself so the
 * chain is aperiodic) at alpha = 1: restricted to `g`'s nodes and renormalised, its stationary
 * distribution is networkx's.
 */
export function personalPagerank(
  g: DirectedGraph | MultiDirectedGraph,
  pers: ReadonlyMap<string, number>,
  alpha: number,
): Map<string, number> {
  if (g.order === 0) return new Map();
  if (pers.size === 0) return new Map(Object.entries(pagerank(g, { alpha, getEdgeWeight: 'weight' })));
  const walk = new MultiDirectedGraph();
  walk.addNode(TELEPORT);
  const total = [...pers.values()].reduce((a, b) => a + b, 0);
  g.forEachNode((n) => walk.addNode(n));
  g.forEachNode((n) => {
    const out = g.outEdges(n).reduce((s, e) => s + (g.getEdgeAttribute(e, 'weight') as number), 0);
    g.forEachOutEdge(n, (_e, attrs, _s, target) => {
      walk.addDirectedEdge(n, target, { weight: (alpha * attrs.weight) / out });
    });
    walk.addDirectedEdge(n, TELEPORT, { weight: out > 0 ? 1 - alpha : 1 });
  });
  for (const [n, v] of pers) walk.addDirectedEdge(TELEPORT, n, { weight: v / total });
  walk.addDirectedEdge(TELEPORT, TELEPORT, { weight: 1 });
  const x = pagerank(walk, { alpha: 1, getEdgeWeight: 'weight', maxIterations: 10_000, tolerance: 1e-9 });
  const mass = 1 - (x[TELEPORT] ?? 0);
  return new Map(g.nodes().map((n) => [n, (x[n] ?? 0) / mass]));
}
