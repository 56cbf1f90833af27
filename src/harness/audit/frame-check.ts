/**
 * The `frame` rule (docs/compiler.md §16.3, §17.6): a content, or the bundle id, holding a line
 * that some common reader of the rendered text would take for one of the frame's own. Readers
 * differ in where a line ends and in what they see past, so the rule takes the widest of them.
 */
import { type ContextBundle, type Frame, frameTag, notOneLine } from '../../compiler/index.js';

/**
 * Every line boundary a common reader splits on: JavaScript's line terminators (`\n`, `\r\n`,
 * `\r`, U+2028, U+2029) and Python's `str.splitlines()` (those and `\v`, `\f`, `\x1c`, `\x1d`,
 * `\x1e`, U+0085).
 */
export const LINE_BREAKS = [
  '\n',
  '\r\n',
  '\r',
  '\u2028',
  '\u2029',
  '\v',
  '\f',
  '\x1c',
  '\x1d',
  '\x1e',
  '\x85',
] as const;

/**
 * How each common reader cuts a text into lines. All of them cut at `\n`, where the frame puts
 * its own lines; a boundary a reader does not cut at is, to it, an invisible character inside a
 * line, so each reader sees lines of its own and all of them are looked at.
 */
export const LINE_READERS: Readonly<Record<string, RegExp>> = {
  newline: /\n/,
  'universal newlines': /\r\n|[\n\r]/,
  javascript: /\r\n|[\n\r\u2028\u2029]/,
  // biome-ignore lint/suspicious/noControlCharactersInRegex: these control characters are its line breaks.
  'python splitlines': /\r\n|[\n\r\u2028\u2029\v\f\x1c-\x1e\x85]/,
};

/**
 * What is left of a line once a reader's eye has passed over it: compatibility forms folded
 * (full-width brackets, small dashes), invisible characters (format, control, combining marks,
 * blank fillers) and all whitespace gone, case ignored. `-\u200b--`, `--- ` and `[/context
 * bundle]` all come out as the delimiter they imitate.
 */
export const asSeen = (text: string): string =>
  text
    .normalize('NFKC')
    .replace(/[\p{Cf}\p{Cc}\p{Mn}\p{Me}\s\u115f\u1160\u2800\u3164\uffa0]/gu, '')
    .toUpperCase();

/** Dashes of every kind (and the minus and box-drawing lines that look like them). */
const DASHES = /^[\p{Pd}\u2212\u2500\u2501\u23af\u2796\u30fc]{3,}$/u;

/**
 * A line the v1 frame would read as its own: a separator (three or more dashes), an opening or
 * closing marker, or a header line (`id:`, `items:`).
 */
export const v1Lookalike = (line: string): boolean => {
  const seen = asSeen(line);
  return DASHES.test(seen) || /^\[\/?CONTEXTBUNDLE/.test(seen) || /^(?:ID|ITEMS):/.test(seen);
};

/** A value as one line of a message, whatever it holds: breaks and invisibles escaped, elided. */
function shown(text: string): string {
  const json = JSON.stringify(text).replace(
    /[\u0080-\u009f\u2028\u2029\p{Cf}]/gu,
    (c) => `\\u${(c.codePointAt(0) ?? 0).toString(16).padStart(4, '0')}`,
  );
  return json.length <= 80 ? json : `${json.slice(0, 72)}…"`;
}

/**
 * The first line of `text` the frame would read as its own, or null. Under v1, a lookalike line
 * as any of the readers cuts it; under v2, any line holding the tag however disguised, and the
 * text as a whole when the tag is spread across lines.
 */
export function forgedLine(text: string, tag: string | null): string | null {
  if (tag === null) {
    for (const split of Object.values(LINE_READERS)) {
      const line = text.split(split).find(v1Lookalike);
      if (line !== undefined) return line;
    }
    return null;
  }
  const wanted = tag.toUpperCase();
  if (!asSeen(text).includes(wanted)) return null;
  return (
    text.split(LINE_READERS['python splitlines'] as RegExp).find((l) => asSeen(l).includes(wanted)) ?? text
  );
}

/** Every `frame` problem of a bundle rendered in `frame`, one line each. */
export function frameProblems(bundle: ContextBundle, frame: Frame): string[] {
  const problems: string[] = [];
  // The tag covers every content: taken once, not once per item.
  const tag = frame === 'v2' ? frameTag(bundle) : null;
  if (notOneLine(bundle.id) !== null || (tag !== null && forgedLine(bundle.id, tag) !== null))
    problems.push(`the bundle id ${shown(bundle.id)} breaks the ${frame} frame's id line`);
  for (const item of bundle.items) {
    const forged = forgedLine(item.content, tag);
    if (forged !== null)
      problems.push(`content of ${item.id} forges the ${frame} frame with a line ${shown(forged)}`);
  }
  return problems;
}
