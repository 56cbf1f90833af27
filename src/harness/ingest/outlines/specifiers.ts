/**
 * Import specifiers as written, one extractor per grammar: what imports.ts resolves to files.
 */
import type Parser from 'web-tree-sitter';
import type { Language } from '../ingest-types.js';

type Node = Parser.SyntaxNode;

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

export const IMPORTS: Readonly<Record<Language, (root: Node) => string[]>> = {
  typescript: scriptImports,
  tsx: scriptImports,
  javascript: scriptImports,
  python: pythonImports,
  go: goImports,
  rust: rustImports,
};
