/**
 * The v2 frame (docs/compiler.md §17.6): its text, its tag, the reader a consumer may rely on, and
 * the rule that keeps header fields on their own line.
 */
import { createHash } from 'node:crypto';

/**
 * The v2 frame around `contents`. Every delimiter carries `tag`; the separator stays one word, so
 * that it costs what the v1 separator costs.
 */
export function frameV2(bundleId: string, tag: string, count: string, contents: readonly string[]): string {
  const lines = [`[CONTEXT BUNDLE ${tag}]`, `id: ${bundleId}`, `items: ${count}`, `---${tag}`];
  if (contents.length > 0) lines.push(contents.join(`\n---${tag}\n`));
  lines.push(`[/CONTEXT BUNDLE ${tag}]`);
  return `${lines.join('\n')}\n`;
}

/** Keeps the tag apart from every other SHA-256 of these strings (the bundle hash among them). */
const DOMAIN = 'ctxbench-frame-v2';

/**
 * The tag: 16 hex digits of a SHA-256 over everything the frame renders except the tag itself,
 * the bundle id, the item count and every content, each prefixed by its UTF-8 length so that no
 * two framings hash alike. A field that held the tag would hold a digest of itself.
 */
export function frameV2Tag(bundleId: string, contents: readonly string[]): string {
  const h = createHash('sha256');
  for (const field of [DOMAIN, bundleId, String(contents.length), ...contents]) {
    const bytes = Buffer.from(field, 'utf8');
    h.update(`${bytes.length}:`);
    h.update(bytes);
  }
  return h.digest('hex').slice(0, 16);
}

/** What a reader gets back from a v2 text. */
export interface FrameV2Reading {
  readonly tag: string;
  readonly bundleId: string;
  readonly contents: readonly string[];
}

/**
 * The reader §17.6 promises: the tag from the first line, the contents by splitting on
 * `"\n---<tag>\n"` and nothing else, and the whole text checked against the frame those give
 * (count and tag included). Null for any text that is not exactly a v2 frame.
 */
export function readFrameV2(text: string): FrameV2Reading | null {
  const head = /^\[CONTEXT BUNDLE ([0-9a-f]{16})\]\nid: ([^\n]*)\nitems: (0|[1-9][0-9]{0,8})\n---\1\n/.exec(
    text,
  );
  if (head === null) return null;
  const [opening, tag = '', bundleId = '', count = ''] = head;
  const closing = `[/CONTEXT BUNDLE ${tag}]\n`;
  if (!text.endsWith(closing) || text.length < opening.length + closing.length) return null;
  const end = text.length - closing.length;
  // No body line at all is zero items; a body line, even an empty one, is at least one.
  const contents = end === opening.length ? [] : text.slice(opening.length, end - 1).split(`\n---${tag}\n`);
  if (String(contents.length) !== count || frameV2Tag(bundleId, contents) !== tag) return null;
  return frameV2(bundleId, tag, count, contents) === text ? { tag, bundleId, contents } : null;
}

/**
 * What a header field must not hold: a line break of any reader (§17.6 lists them), another
 * control character, or a format character (zero-width, bidirectional), which could start a line
 * of its own or hide one.
 */
const NOT_IN_A_LINE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u;

/** Why `value` cannot be a line of the frame, or null when it can. */
export function notOneLine(value: string): string | null {
  const m = NOT_IN_A_LINE.exec(value);
  if (m === null) return null;
  const code = (m[0].codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0');
  return `holds U+${code} at index ${m.index} (need no line break, control or format character: it is rendered as a line of the frame)`;
}
