/**
 * The outliners: one per grammar, each walking a syntax tree and writing one line per declaration
 * in the format outline.ts describes, and the scripts' test entries (outline-tests.ts).
 */
import type Parser from 'web-tree-sitter';
import type { Language } from '../ingest-types.js';
import { type TestEntries, testEntries } from './outline-tests.js';

type Node = Parser.SyntaxNode;

/**
 * Where outline lines are written, and how a header is cut from the source. Declarations go to
 * `lines` and to `declarations`; a test file's entries (outline-tests.ts) to `lines` alone.
 */
export class Outline implements TestEntries {
  readonly text: string;
  /** Every line, in source order: the outline. */
  readonly lines: string[] = [];
  /** The declarations' lines alone: what the relevance model's `identifiers_declared` reads. */
  readonly declarations: string[] = [];
  private readonly python: boolean;

  constructor(text: string, python: boolean) {
    this.text = text;
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
    const line = `${first.startPosition.row + 1}: ${'  '.repeat(depth)}${prefix}${header}`;
    this.lines.push(line);
    this.declarations.push(line);
  }

  test(call: Node, header: string, depth: number): void {
    this.lines.push(`${call.startPosition.row + 1}: ${'  '.repeat(depth)}${header}`);
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
      else testEntries(node, out, depth);
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

export const OUTLINERS: Readonly<Record<Language, Outliner>> = {
  typescript: outlineScript,
  tsx: outlineScript,
  javascript: outlineScript,
  python: outlinePython,
  go: outlineGo,
  rust: outlineRust,
};

// ---- Imports ----
