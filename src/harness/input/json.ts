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

/** The offset of the first byte that does not start or continue a well-formed UTF-8 sequence. */
function firstBadByte(bytes: Uint8Array, start: number): number {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  let lo = start;
  let hi = bytes.length;
  // The longest prefix that decodes (a cut inside a sequence fails, so probe whole prefixes).
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    try {
      decoder.decode(bytes.subarray(start, mid));
      lo = mid;
    } catch {
      hi = mid - 1;
    }
  }
  return lo;
}

/** `line L, column C` (both from 1) of an offset into text. */
function place(text: string, offset: number): string {
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  return `line ${line}, column ${offset - before.lastIndexOf('\n')}`;
}

/** Parse JSON text; a syntax error becomes one line: what is wrong and where. */
export function parseJson(text: string): { readonly value: unknown } | { readonly problem: string } {
  try {
    return { value: JSON.parse(text) };
  } catch {
    const at = syntaxErrorAt(text);
    const what = at >= text.length ? 'unexpected end' : `unexpected ${JSON.stringify(text[at])}`;
    return { problem: `not valid JSON (${what} at ${place(text, Math.min(at, text.length))})` };
  }
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
