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
 *
 * A JavaScript or TypeScript test file's tests are lines too, among the declarations in source
 * order: `<line>: <indent><callee>('<title>')`, a group's tests one level deeper
 * (outline-tests.ts). They are not declarations, and the declarations' lines are also given
 * alone (`Outlined.declarations`): the relevance model reads what the outline declares there.
 */
import { type Language, languageOf, loadRepoGraph, type Parsers } from '../../kit/index.js';
import { OUTLINERS, Outline } from './outliners.js';
import { IMPORTS } from './specifiers.js';

export { languageOf };

/** A file's outline, and the lines of it that are declarations (a test file's tests not among them). */
export interface Outlined {
  readonly outline: string;
  readonly declarations: string;
}

const NOTHING: Outlined = { outline: '', declarations: '' };

export interface Grammars {
  /** The outline (see the module header); never throws, whatever the text. */
  outline(language: Language, text: string): string;
  /** The outline and its declarations' lines, from one walk of the tree; never throws. */
  outlined(language: Language, text: string): Outlined;
  /** The module specifiers the text imports, as written, in source order, each once. */
  imports(language: Language, text: string): string[];
}

// One Grammars per loaded set of parsers, which the kit loads once per process.
const made = new WeakMap<Parsers, Grammars>();

/** The outline and the imports, on the kit's parsers. */
export async function loadGrammars(): Promise<Grammars> {
  const parsers = await (await loadRepoGraph()).loadParsers();
  let grammars = made.get(parsers);
  if (grammars === undefined) {
    grammars = grammarsOf(parsers);
    made.set(parsers, grammars);
  }
  return grammars;
}

function grammarsOf(parsers: Parsers): Grammars {
  const outlined = (language: Language, text: string): Outlined =>
    parsers.withTree(
      language,
      text,
      (root) => {
        const out = new Outline(text, language === 'python');
        OUTLINERS[language](root, out);
        return { outline: out.lines.join('\n'), declarations: out.declarations.join('\n') };
      },
      NOTHING,
    );
  return {
    outline: (language, text) => outlined(language, text).outline,
    outlined,
    imports: (language, text) =>
      parsers.withTree(language, text, (root) => [...new Set(IMPORTS[language](root))], []),
  };
}
