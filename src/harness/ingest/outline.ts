/**
 * A source file's outline and its import specifiers, from the tree-sitter grammars of
 * tree-sitter-wasms (run by web-tree-sitter, so nothing is compiled at install).
 *
 * The outline has one line per declaration, in source order:
 *
 *     <line>: <indent><header>
 *
 * `<line>` is the 1-based line the declaration starts on (after any decorators), `<indent>` two
 * spaces per level of nesting (a class's methods, an impl's functions, a namespace's or an inline
 * module's items), and `<header>` the declaration as written from its first token (an `export`,
 * `pub` or `declare` included) up to its body (`{ ... }`, or Python's `:` block), cut at the end
 * of its first line. Declarations without a body (a field, a type alias, an exported const) give
 * their first line; a trailing `;` (and Python's `:`) is dropped. Lines are joined with `\n`; a
 * file without declarations gives ''.
 *
 * Go's grouped declarations (`type (`, `const (`, `var (`) give one line per spec, prefixed with
 * its keyword (`type U int`), the line being the spec's own.
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import Parser from 'web-tree-sitter';
import type { Language } from './ingest-types.js';
import { OUTLINERS, Outline } from './outliners.js';
import { IMPORTS } from './specifiers.js';

type Node = Parser.SyntaxNode;

const EXTENSIONS: ReadonlyMap<string, Language> = new Map([
  ['.ts', 'typescript'],
  ['.mts', 'typescript'],
  ['.cts', 'typescript'],
  ['.tsx', 'tsx'],
  ['.js', 'javascript'],
  ['.mjs', 'javascript'],
  ['.cjs', 'javascript'],
  // The javascript grammar parses JSX; the tsx one would reject the untyped code JSX files hold.
  ['.jsx', 'javascript'],
  ['.py', 'python'],
  ['.go', 'go'],
  ['.rs', 'rust'],
]);

/** The outline grammar a path is parsed with, by its extension (`.d.ts` is TypeScript). */
export function languageOf(path: string): Language | null {
  const name = path.slice(path.lastIndexOf('/') + 1);
  const dot = name.lastIndexOf('.');
  if (dot <= 0) return null;
  return EXTENSIONS.get(name.slice(dot).toLowerCase()) ?? null;
}

export interface Grammars {
  /** The outline (see the module header); never throws, whatever the text. */
  outline(language: Language, text: string): string;
  /** The module specifiers the text imports, as written, in source order, each once. */
  imports(language: Language, text: string): string[];
}

const WASM: Readonly<Record<Language, string>> = {
  typescript: 'tree-sitter-typescript.wasm',
  tsx: 'tree-sitter-tsx.wasm',
  javascript: 'tree-sitter-javascript.wasm',
  python: 'tree-sitter-python.wasm',
  go: 'tree-sitter-go.wasm',
  rust: 'tree-sitter-rust.wasm',
};

let loading: Promise<Grammars> | undefined;

/** The six grammars, loaded once per process (web-tree-sitter's runtime may be initialised once). */
export function loadGrammars(): Promise<Grammars> {
  if (loading === undefined) {
    loading = load();
    // A failed load (a missing wasm file) is not remembered, so that a later call can report it again.
    loading.catch(() => {
      loading = undefined;
    });
  }
  return loading;
}

async function load(): Promise<Grammars> {
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
  const withTree = <T>(language: Language, text: string, use: (root: Node) => T, fallback: T): T => {
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
      // tree-sitter recovers from syntax errors itself; this is for the runtime failing (memory).
      last?.tree.delete();
      last = undefined;
      return fallback;
    }
  };
  return {
    outline: (language, text) =>
      withTree(
        language,
        text,
        (root) => {
          const lines: string[] = [];
          OUTLINERS[language](root, new Outline(text, lines, language === 'python'));
          return lines.join('\n');
        },
        '',
      ),
    imports: (language, text) =>
      withTree(language, text, (root) => [...new Set(IMPORTS[language](root))], []),
  };
}
