/**
 * Input text as ctxbench accepts it: UTF-8 (a byte-order mark is dropped; UTF-16 and invalid
 * bytes are refused), and JSON whose errors are reported on one line, by line and column,
 * without quoting the file back.
 */

/** Why bytes are not acceptable input text, or the text. */
export function decodeText(bytes: Uint8Array): { readonly text: string } | { readonly problem: string } {
  if ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff))
    return { problem: 'not UTF-8 (it starts with a UTF-16 byte-order mark)' };
  const start = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  try {
    return { text: new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(start)) };
  } catch {
    return { problem: `not valid UTF-8 (at byte ${firstBadByte(bytes, start)})` };
  }
}

/** The offset of the first byte that does not start a well-formed UTF-8 sequence. */
function firstBadByte(bytes: Uint8Array, start: number): number {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  let i = start;
  while (i < bytes.length) {
    const b = bytes[i] as number;
    // The lead byte says how long the sequence is; the decoder judges that one sequence
    // (overlong forms, surrogates and values past U+10FFFF included).
    const n =
      b < 0x80 ? 1 : b >= 0xc2 && b <= 0xdf ? 2 : b >= 0xe0 && b <= 0xef ? 3 : b >= 0xf0 && b <= 0xf4 ? 4 : 0;
    if (n === 0) return i;
    try {
      decoder.decode(bytes.subarray(i, i + n));
    } catch {
      return i;
    }
    i += n;
  }
  return i;
}

/** `line L, column C` (both from 1) of an offset into text. */
function place(text: string, offset: number): string {
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  return `line ${line}, column ${offset - before.lastIndexOf('\n')}`;
}

/**
 * How deep an input document may nest, arrays and objects counted alike. ctxbench's own
 * documents nest at most 7 deep; code that walks a document (the readers, error messages,
 * JSON.stringify) may recurse, and past a few thousand levels the call stack runs out, so a
 * deeper document is refused before it is parsed (docs/reliability.md, "Clear errors for bad
 * input").
 */
export const MAX_NESTING = 100;

/**
 * Whether a parsed value nests deeper than MAX_NESTING: a walk with a stack of its own, pushing
 * containers only, so that neither depth nor a list of millions of numbers costs more than
 * the value itself. Also for JSON parsed elsewhere (an MCP call's arguments).
 */
export function tooDeep(root: unknown): boolean {
  const stack: [object, number][] = [];
  if (typeof root === 'object' && root !== null) stack.push([root, 1]);
  for (let top = stack.pop(); top !== undefined; top = stack.pop()) {
    const [value, depth] = top;
    if (depth > MAX_NESTING) return true;
    const items = Array.isArray(value) ? value : Object.values(value);
    for (const item of items) if (typeof item === 'object' && item !== null) stack.push([item, depth + 1]);
  }
  return false;
}

/**
 * The offset of the bracket that opens level MAX_NESTING + 1, or -1: a scan of the text in
 * constant memory, for the message (and for text JSON.parse refused, before the recursive
 * syntaxErrorAt reads it).
 */
function tooDeepAt(text: string): number {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > MAX_NESTING) return i;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return -1;
}

/** Parse JSON text; a syntax error becomes one line: what is wrong and where. */
export function parseJson(text: string): { readonly value: unknown } | { readonly problem: string } {
  const deepText = (): { problem: string } | undefined => {
    const deep = tooDeepAt(text);
    return deep < 0
      ? undefined
      : { problem: `nested deeper than ${MAX_NESTING} levels (at ${place(text, deep)})` };
  };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    const deep = deepText();
    if (deep !== undefined) return deep;
    const at = syntaxErrorAt(text);
    const what = at >= text.length ? 'unexpected end' : `unexpected ${JSON.stringify(text[at])}`;
    return { problem: `not valid JSON (${what} at ${place(text, Math.min(at, text.length))})` };
  }
  if (tooDeep(value)) return deepText() ?? { problem: `nested deeper than ${MAX_NESTING} levels` };
  // Valid JSON may still escape half a surrogate pair: not text, and no UTF-8 bytes to hash.
  const lone = ESCAPED_SURROGATE.test(text) ? loneSurrogate(value) : null;
  return lone === null ? { value } : { problem: lone };
}

/**
 * Why a parsed value is not Unicode text (a string or key holding half a surrogate pair, with
 * where it is), or null. Also for JSON parsed elsewhere: an MCP call's arguments must be refused
 * as the same document in a file is.
 */
export function loneSurrogate(value: unknown): string | null {
  const lone = loneSurrogateAt(value);
  return lone === null ? null : `not Unicode text (a lone surrogate escape in ${lone})`;
}

const ESCAPED_SURROGATE = /\\u[dD][89a-fA-F]/;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

interface Step {
  readonly up: Step | null;
  readonly key: string | number;
}

/** Where in a parsed value a string (or key) holds a lone surrogate, as a path; or null. */
function loneSurrogateAt(root: unknown): string | null {
  // A stack, not recursion, and paths as links to the parent: a document may nest deeper than
  // the call stack goes.
  const stack: [unknown, Step | null][] = [[root, null]];
  for (let top = stack.pop(); top !== undefined; top = stack.pop()) {
    const [value, step] = top;
    if (typeof value === 'string' && LONE_SURROGATE.test(value)) return pathText(step);
    if (typeof value !== 'object' || value === null) continue;
    const entries = Object.entries(value);
    for (const [key] of entries) if (LONE_SURROGATE.test(key)) return `a key of ${pathText(step)}`;
    for (const [key, item] of entries.reverse())
      stack.push([item, { up: step, key: Array.isArray(value) ? Number(key) : key }]);
  }
  return null;
}

function pathText(step: Step | null): string {
  if (step === null) return 'the document';
  const keys: (string | number)[] = [];
  for (let s: Step | null = step; s !== null; s = s.up) keys.unshift(s.key);
  return keys
    .map((k, n) =>
      typeof k === 'number'
        ? `[${k}]`
        : /^[A-Za-z_][\w-]*$/.test(k)
          ? `${n === 0 ? '' : '.'}${k}`
          : `[${JSON.stringify(k)}]`,
    )
    .join('');
}

/**
 * The offset of the first JSON syntax error in text: a small recursive-descent reading of the
 * grammar, used only to say where JSON.parse failed (its messages may quote the whole input).
 */
function syntaxErrorAt(text: string): number {
  let i = 0;
  const ws = () => {
    while (i < text.length && ' \t\n\r'.includes(text[i] as string)) i++;
  };
  const fail = (): never => {
    throw i;
  };
  const literal = (word: string) => {
    for (const ch of word) {
      if (text[i] !== ch) fail();
      i++;
    }
  };
  const string = () => {
    i++;
    while (text[i] !== '"') {
      if (i >= text.length || text.charCodeAt(i) < 0x20) fail();
      if (text[i] === '\\') {
        i++;
        if (text[i] === 'u') {
          for (let k = 0; k < 4; k++) if (!/[0-9a-fA-F]/.test(text[++i] ?? '')) fail();
        } else if (!'"\\/bfnrt'.includes(text[i] ?? 'x')) fail();
      }
      i++;
    }
    i++;
  };
  const number = () => {
    const m = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(i, i + 400));
    if (m === null || m[0] === '' || m[0] === '-') fail();
    i += (m as RegExpExecArray)[0].length;
  };
  const value = (): void => {
    ws();
    const ch = text[i];
    if (ch === '{') members('}', true);
    else if (ch === '[') members(']', false);
    else if (ch === '"') string();
    else if (ch === 't') literal('true');
    else if (ch === 'f') literal('false');
    else if (ch === 'n') literal('null');
    else if (ch === '-' || (ch !== undefined && ch >= '0' && ch <= '9')) number();
    else fail();
  };
  const members = (close: string, keyed: boolean) => {
    i++;
    ws();
    if (text[i] === close) {
      i++;
      return;
    }
    for (;;) {
      if (keyed) {
        ws();
        if (text[i] !== '"') fail();
        string();
        ws();
        if (text[i] !== ':') fail();
        i++;
      }
      value();
      ws();
      if (text[i] === close) {
        i++;
        return;
      }
      if (text[i] !== ',') fail();
      i++;
    }
  };
  try {
    value();
    ws();
    if (i < text.length) fail();
    return text.length;
  } catch (at) {
    return typeof at === 'number' ? at : text.length;
  }
}
