/**
 * The tests of a JavaScript or TypeScript test file, as outline entries. Such a file declares
 * next to nothing: its tests are calls (vitest, jest, mocha, jasmine, ava, node:test, Playwright),
 * `describe('pool', () => { it.only('keeps the task first', ...) })`. Each statement that calls a
 * runner's function with a literal title gives one entry,
 *
 *     <line>: <indent><callee>('<title>')
 *
 * and the calls in its callback's body are entries one level deeper. The callee is the runner's
 * name and its modifiers (`test.each(…)`, `describe.skip`), the title its text as written, on one
 * line and cut. A title that is not a literal (`describe(Store.name, ...)`) gives no entry; the
 * calls inside it are read at the same depth.
 *
 * Entries are not declarations: the relevance model's `identifiers_declared` was fitted on
 * outlines without them, so they are written apart (`TestEntries.test`) and never reach it.
 * Python's `def test_...` and `class Test...`, Go's `func TestX` and Rust's `#[test] fn` need
 * nothing here: they are declarations, outlined as such.
 */
import type Parser from 'web-tree-sitter';

type Node = Parser.SyntaxNode;

/** Where entries are written: the outline, which holds the file's text. */
export interface TestEntries {
  readonly text: string;
  /** One entry, on the line `call` starts on. */
  test(call: Node, header: string, depth: number): void;
}

/** The runners' functions that name a test or a group of tests. */
const RUNNERS: ReadonlySet<string> = new Set([
  'describe',
  'fdescribe',
  'xdescribe',
  'context',
  'xcontext',
  'suite',
  'it',
  'fit',
  'xit',
  'test',
  'xtest',
  'specify',
  'xspecify',
  'bench',
]);

/** What may follow a runner's name (`describe.only.each`, Playwright's `test.describe.parallel`). */
const MODIFIERS: ReadonlySet<string> = new Set([
  'only',
  'skip',
  'todo',
  'each',
  'for',
  'concurrent',
  'sequential',
  'shuffle',
  'fails',
  'failing',
  'fail',
  'fixme',
  'serial',
  'skipIf',
  'runIf',
  'describe',
  'parallel',
  'step',
]);

/** Modifiers called first, with a table or a condition: `test.each(rows)('adds %i', ...)`. */
const CALLED_FIRST: ReadonlySet<string> = new Set(['each', 'for', 'skipIf', 'runIf']);

/** More modifiers than any runner chains; a longer chain is not a test. */
const MOST_MODIFIERS = 3;
/** Calls nested deeper than this are not read, so that a hostile file's nesting costs nothing. */
const DEEPEST = 12;
/** Characters of a title shown; a longer one is cut and ends with `…`. */
const TITLE_CHARS = 100;
/** A longer escape (`\u{0000…41}`, any number of zeros) ends what is shown of a title. */
const LONGEST_ESCAPE = 12;

/** The entries of a statement of the file, if it calls a runner, at `depth`. */
export function testEntries(statement: Node, out: TestEntries, depth: number): void {
  visit(statement, out, depth, 0);
}

function visit(statement: Node, out: TestEntries, depth: number, level: number): void {
  if (level >= DEEPEST) return;
  let call = statement.firstNamedChild;
  // node:test's `await test('...', ...)` at a module's top level.
  if (call?.type === 'await_expression') call = call.firstNamedChild;
  if (call?.type !== 'call_expression') return;
  const callee = calleeOf(call.childForFieldName('function'));
  const args = call.childForFieldName('arguments');
  // A tagged template (`` it`x` ``) has no arguments node: not a test.
  if (callee === null || args?.type !== 'arguments') return;
  const given = args.namedChildren.filter((a) => a.type !== 'comment');
  const title = given[0] === undefined ? null : titleOf(given[0], out.text);
  if (title !== null) out.test(call, `${callee}(${title})`, depth);
  const callback = given.findLast((a) => a.type === 'arrow_function' || a.type === 'function_expression');
  const body = callback?.childForFieldName('body');
  if (body?.type !== 'statement_block') return;
  for (const inner of body.namedChildren)
    if (inner.type === 'expression_statement')
      visit(inner, out, title === null ? depth : depth + 1, level + 1);
}

/** What is called (`it`, `describe.skip`, `test.each(…)`, `` test.each`…` ``), or null: no runner. */
function calleeOf(fn: Node | null): string | null {
  if (fn?.type === 'call_expression') {
    const chain = chainOf(fn.childForFieldName('function'));
    if (chain === null || !CALLED_FIRST.has(chain[chain.length - 1] as string)) return null;
    const table = fn.childForFieldName('arguments')?.type === 'template_string' ? '`…`' : '(…)';
    return `${chain.join('.')}${table}`;
  }
  const chain = chainOf(fn);
  return chain === null || CALLED_FIRST.has(chain[chain.length - 1] as string) ? null : chain.join('.');
}

/** A runner's name and its modifiers (`['describe', 'only']`), or null. */
function chainOf(node: Node | null): string[] | null {
  const names: string[] = [];
  let at = node;
  while (at?.type === 'member_expression') {
    const property = at.childForFieldName('property');
    if (names.length === MOST_MODIFIERS || property?.type !== 'property_identifier') return null;
    if (!MODIFIERS.has(property.text)) return null;
    names.unshift(property.text);
    at = at.childForFieldName('object');
  }
  if (at?.type !== 'identifier' || !RUNNERS.has(at.text)) return null;
  return [at.text, ...names];
}

/** Spaces, line breaks, control characters and the marks that reorder a line's text. */
const BLANK = /^[\s\p{Cc}\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]$/u;
const LINE_BREAK = /[\n\r\u2028\u2029]/;
/** Escapes shown as the character they stand for: within single quotes it needs none. */
const PLAIN_ESCAPES: ReadonlySet<string> = new Set(['\\"', '\\`', '\\$']);

/**
 * A literal title as a single-quoted string of one line, or null for any other expression (a
 * template with a `${...}` included). Its characters are kept as written, escapes too, a `'`
 * escaped, each run of blanks (a blank escaped too) one space, a line continuation nothing. At
 * most TITLE_CHARS characters are shown and twice that read from each part, so a title of
 * megabytes costs no more than a short one.
 */
function titleOf(node: Node, text: string): string | null {
  if (node.type !== 'string' && node.type !== 'template_string') return null;
  // One unit per character shown, an escape one unit, so that a cut never splits either.
  const units: string[] = [];
  // Whether some of the title was not read.
  let cut = false;
  const blank = () => {
    if (units.length > 0 && units[units.length - 1] !== ' ') units.push(' ');
  };
  // Sibling by sibling, not `namedChildren`: a title of a million escapes makes no million nodes at once.
  for (let part = node.firstNamedChild; part !== null; part = part.nextNamedSibling) {
    if (part.type !== 'string_fragment' && part.type !== 'escape_sequence') return null;
    if (cut || units.length > TITLE_CHARS) {
      cut = true;
      // Only a template's later parts can still make it no literal (a `${...}`).
      if (node.type === 'string') break;
      continue;
    }
    if (part.type === 'escape_sequence') {
      const raw = text.slice(part.startIndex, Math.min(part.endIndex, part.startIndex + LONGEST_ESCAPE + 1));
      const escaped = raw.slice(1);
      if (raw.length > LONGEST_ESCAPE) cut = true;
      else if (LINE_BREAK.test(escaped)) continue;
      else if (BLANK.test(escaped)) blank();
      else units.push(PLAIN_ESCAPES.has(raw) ? escaped : raw);
      continue;
    }
    let end = Math.min(part.endIndex, part.startIndex + 2 * TITLE_CHARS);
    // Never half of a surrogate pair.
    if (end < part.endIndex && /[\uD800-\uDBFF]/.test(text.charAt(end - 1))) end--;
    if (end < part.endIndex) cut = true;
    for (const ch of text.slice(part.startIndex, end)) {
      if (BLANK.test(ch)) blank();
      else units.push(ch === "'" ? "\\'" : ch);
    }
  }
  while (units[units.length - 1] === ' ') units.pop();
  if (units.length > TITLE_CHARS) cut = true;
  const shown = units.slice(0, TITLE_CHARS);
  while (shown[shown.length - 1] === ' ') shown.pop();
  return `'${shown.join('')}${cut ? '…' : ''}'`;
}
