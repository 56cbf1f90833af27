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
import type { Language } from './types.js';

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

/** Where outline lines are written, and how a header is cut from the source. */
class Outline {
  private readonly text: string;
  private readonly lines: string[];
  private readonly python: boolean;

  constructor(text: string, lines: string[], python: boolean) {
    this.text = text;
    this.lines = lines;
    this.python = python;
  }

  /**
   * One line for a declaration starting at `start`, its header ending where `body` starts (or at
   * the declaration's end); `prefix` stands before it (Go's grouped specs).
   */
  add(start: Node, decl: Node, body: Node | null, depth: number, prefix = ''): void {
    const first = firstToken(start);
    const from = first.startIndex;
    const to = body !== null && body.startIndex > from ? body.startIndex : decl.endIndex;
    let header = (this.text.slice(from, to).split('\n')[0] ?? '').trimEnd();
    if (header.endsWith(';')) header = header.slice(0, -1).trimEnd();
    if (this.python && header.endsWith(':')) header = header.slice(0, -1).trimEnd();
    if (header === '') return;
    this.lines.push(`${first.startPosition.row + 1}: ${'  '.repeat(depth)}${prefix}${header}`);
  }
}

/** Decorators and comments before a declaration's first token are not its header. */
function firstToken(node: Node): Node {
  for (const child of node.children) {
    if (child.type !== 'decorator' && child.type !== 'comment') {
      return child.startIndex === node.startIndex ? node : child;
    }
  }
  return node;
}

type Outliner = (root: Node, out: Outline) => void;

// ---- TypeScript, TSX, JavaScript ----

function scriptStatements(parent: Node, out: Outline, depth: number): void {
  for (const node of parent.namedChildren) {
    if (node.type === 'export_statement') {
      const decl = node.childForFieldName('declaration');
      if (decl !== null) scriptDeclaration(decl, node, out, depth, true);
      else {
        // `export default function () {}` and `export default class {}`.
        const value = node.childForFieldName('value');
        if (value !== null && (value.type === 'function_expression' || value.type === 'class')) {
          scriptDeclaration(value, node, out, depth, true);
        }
      }
    } else if (node.type === 'ambient_declaration') {
      const decl = node.namedChildren.find((c) => c.type !== 'comment');
      if (decl !== undefined) scriptDeclaration(decl, node, out, depth, true);
    } else if (node.type === 'expression_statement') {
      const inner = node.firstNamedChild;
      if (inner?.type === 'internal_module') scriptDeclaration(inner, node, out, depth, false);
    } else if (node.type === 'ERROR') {
      scriptStatements(node, out, depth);
    } else {
      scriptDeclaration(node, node, out, depth, false);
    }
  }
}

function scriptDeclaration(decl: Node, start: Node, out: Outline, depth: number, exported: boolean): void {
  const body = decl.childForFieldName('body');
  switch (decl.type) {
    case 'function_declaration':
    case 'generator_function_declaration':
    case 'function_signature':
    case 'function_expression':
    case 'interface_declaration':
    case 'enum_declaration':
    case 'type_alias_declaration':
      out.add(start, decl, body, depth);
      return;
    case 'class_declaration':
    case 'abstract_class_declaration':
    case 'class':
      out.add(start, decl, body, depth);
      if (body !== null) classMembers(body, out, depth + 1);
      return;
    case 'internal_module':
    case 'module':
      out.add(start, decl, body, depth);
      if (body !== null) scriptStatements(body, out, depth + 1);
      return;
    case 'lexical_declaration':
    case 'variable_declaration':
      if (exported) out.add(start, decl, null, depth);
      return;
  }
}

const CLASS_MEMBERS: ReadonlySet<string> = new Set([
  'method_definition',
  'method_signature',
  'abstract_method_signature',
  'public_field_definition',
  'field_definition',
]);

function classMembers(body: Node, out: Outline, depth: number): void {
  for (const member of body.namedChildren) {
    if (CLASS_MEMBERS.has(member.type)) out.add(member, member, member.childForFieldName('body'), depth);
    else if (member.type === 'ERROR') classMembers(member, out, depth);
  }
}

const outlineScript: Outliner = (root, out) => scriptStatements(root, out, 0);

// ---- Python ----

function pythonBlock(parent: Node, out: Outline, depth: number): void {
  for (const node of parent.namedChildren) {
    const decl = node.type === 'decorated_definition' ? node.childForFieldName('definition') : node;
    if (decl === null) continue;
    // The header ends at the definition's own `:`, so that a comment after it is left out.
    const colon = decl.children.find((c) => c.type === ':') ?? decl.childForFieldName('body');
    if (decl.type === 'function_definition') out.add(decl, decl, colon, depth);
    else if (decl.type === 'class_definition') {
      out.add(decl, decl, colon, depth);
      const body = decl.childForFieldName('body');
      if (body !== null) pythonBlock(body, out, depth + 1);
    } else if (decl.type === 'ERROR') pythonBlock(decl, out, depth);
  }
}

const outlinePython: Outliner = (root, out) => pythonBlock(root, out, 0);

// ---- Go ----

const GO_SPECS: Readonly<Record<string, { readonly keyword: string; readonly specs: readonly string[] }>> = {
  type_declaration: { keyword: 'type', specs: ['type_spec', 'type_alias'] },
  const_declaration: { keyword: 'const', specs: ['const_spec'] },
  var_declaration: { keyword: 'var', specs: ['var_spec'] },
};

function goDeclarations(parent: Node, out: Outline): void {
  for (const node of parent.namedChildren) {
    if (node.type === 'function_declaration' || node.type === 'method_declaration') {
      out.add(node, node, node.childForFieldName('body'), 0);
    } else if (node.type === 'ERROR') {
      goDeclarations(node, out);
    } else {
      const kind = GO_SPECS[node.type];
      if (kind === undefined) continue;
      const grouped = node.children.some((c) => c.type === '(');
      for (const spec of node.namedChildren) {
        if (!kind.specs.includes(spec.type)) continue;
        const body = goTypeBody(spec.childForFieldName('type'));
        if (grouped) out.add(spec, spec, body, 0, `${kind.keyword} `);
        else out.add(node, spec, body, 0);
      }
    }
  }
}

/** A struct's or interface's `{`, where a type declaration's header ends. */
function goTypeBody(type: Node | null): Node | null {
  if (type === null) return null;
  if (type.type === 'struct_type')
    return type.namedChildren.find((c) => c.type === 'field_declaration_list') ?? null;
  if (type.type === 'interface_type') return type.children.find((c) => c.type === '{') ?? null;
  return null;
}

const outlineGo: Outliner = (root, out) => goDeclarations(root, out);

// ---- Rust ----

function rustItems(parent: Node, out: Outline, depth: number): void {
  for (const node of parent.namedChildren) {
    const body = node.childForFieldName('body');
    switch (node.type) {
      case 'function_item':
      case 'function_signature_item':
      case 'struct_item':
      case 'enum_item':
      case 'union_item':
      case 'type_item':
      case 'const_item':
      case 'static_item':
        out.add(node, node, body, depth);
        break;
      case 'trait_item':
      case 'impl_item':
      case 'mod_item':
        out.add(node, node, body, depth);
        if (body !== null) rustItems(body, out, depth + 1);
        break;
      case 'ERROR':
        rustItems(node, out, depth);
        break;
    }
  }
}

const outlineRust: Outliner = (root, out) => rustItems(root, out, 0);

const OUTLINERS: Readonly<Record<Language, Outliner>> = {
  typescript: outlineScript,
  tsx: outlineScript,
  javascript: outlineScript,
  python: outlinePython,
  go: outlineGo,
  rust: outlineRust,
};

// ---- Imports ----

/** A string literal's value; null for a template with substitutions (not a fixed specifier). */
function stringValue(node: Node | null | undefined): string | null {
  if (node === null || node === undefined) return null;
  if (
    node.type === 'string' ||
    node.type === 'interpreted_string_literal' ||
    node.type === 'raw_string_literal'
  ) {
    const text = node.text;
    return text.length >= 2 ? text.slice(1, -1) : null;
  }
  if (node.type === 'template_string' && node.namedChildren.every((c) => c.type === 'string_fragment')) {
    return node.text.slice(1, -1);
  }
  return null;
}

function scriptImports(root: Node): string[] {
  const found: string[] = [];
  for (const node of root.descendantsOfType(['import_statement', 'export_statement', 'call_expression'])) {
    if (node.type === 'call_expression') {
      const callee = node.childForFieldName('function');
      const args = node.childForFieldName('arguments');
      const isRequire = callee?.type === 'identifier' && callee.text === 'require';
      if ((isRequire || callee?.type === 'import') && args !== null && args.namedChildCount === 1) {
        const value = stringValue(args.namedChild(0));
        if (value !== null) found.push(value);
      }
      continue;
    }
    // `import x = require('y')` holds its source in a clause; the other forms in the statement.
    const source =
      node.childForFieldName('source') ??
      node.namedChildren.find((c) => c.type === 'import_require_clause')?.childForFieldName('source');
    const value = stringValue(source);
    if (value !== null) found.push(value);
  }
  return found;
}

function pythonImports(root: Node): string[] {
  const found: string[] = [];
  for (const node of root.descendantsOfType(['import_statement', 'import_from_statement'])) {
    if (node.type === 'import_statement') {
      for (const name of node.childrenForFieldName('name')) {
        const dotted = name.type === 'aliased_import' ? name.childForFieldName('name') : name;
        if (dotted !== null) found.push(dotted.text);
      }
      continue;
    }
    const module = node.childForFieldName('module_name');
    if (module === null) continue;
    const base = module.text.replace(/\s+/g, '');
    found.push(base);
    // `from m import n` may import the submodule m.n; which it is, only the files can tell.
    for (const name of node.childrenForFieldName('name')) {
      const dotted = name.type === 'aliased_import' ? name.childForFieldName('name') : name;
      if (dotted !== null)
        found.push(base.endsWith('.') ? `${base}${dotted.text}` : `${base}.${dotted.text}`);
    }
  }
  return found;
}

function goImports(root: Node): string[] {
  const found: string[] = [];
  for (const spec of root.descendantsOfType('import_spec')) {
    const value = stringValue(spec.childForFieldName('path'));
    if (value !== null) found.push(value);
  }
  return found;
}

const RUST_LOCAL_ROOTS: ReadonlySet<string> = new Set(['crate', 'super', 'self']);

/**
 * Rust's `mod foo;` gives `foo` (a bare name: a module file beside this one); `use` gives the
 * path up to its item list (`use crate::a::{B, C}` gives `crate::a`), for crate-local paths only.
 */
function rustImports(root: Node): string[] {
  const found: string[] = [];
  for (const node of root.descendantsOfType(['mod_item', 'use_declaration'])) {
    if (node.type === 'mod_item') {
      const name = node.childForFieldName('name');
      if (node.childForFieldName('body') === null && name !== null) found.push(name.text);
      continue;
    }
    let path = node.childForFieldName('argument');
    while (path !== null && path.type !== 'scoped_identifier' && !RUST_LOCAL_ROOTS.has(path.type)) {
      if (path.type === 'scoped_use_list' || path.type === 'use_as_clause')
        path = path.childForFieldName('path');
      else if (path.type === 'use_wildcard') path = path.firstNamedChild;
      else path = null;
    }
    if (path === null) continue;
    const text = path.text.replace(/\s+/g, '');
    if (RUST_LOCAL_ROOTS.has(text.split('::')[0] ?? '')) found.push(text);
  }
  return found;
}

const IMPORTS: Readonly<Record<Language, (root: Node) => string[]>> = {
  typescript: scriptImports,
  tsx: scriptImports,
  javascript: scriptImports,
  python: pythonImports,
  go: goImports,
  rust: rustImports,
};
