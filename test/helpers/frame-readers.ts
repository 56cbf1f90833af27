/**
 * Readers of a rendered bundle, written from docs/compiler.md §17.6 and not from the renderer: the
 * split the spec says a reader may rely on, and line readers that cut where common readers cut
 * and take any line that looks like a delimiter for one. A reader is fooled when it finds other
 * pieces, or other delimiter lines, than the frame put there.
 */
import { type ContextBundle, type Frame, readFrameV2 } from '../../src/compiler/index.js';
import { asSeen, LINE_READERS, v1Lookalike } from '../../src/harness/audit/frame-check.js';

const V1_CLOSE = '\n[/CONTEXT BUNDLE]\n';

/** The v1 split: the body between the header's `---` line and the closing line, cut at `\n---\n`. */
export function splitV1(text: string): string[] | null {
  const head = /^\[CONTEXT BUNDLE\]\nid: [^\n]*\nitems: \d+\n/.exec(text);
  if (head === null || !text.endsWith(V1_CLOSE)) return null;
  const rest = text.slice(head[0].length, text.length - V1_CLOSE.length + 1);
  if (rest === '') return [];
  if (!rest.startsWith('---\n') || !rest.endsWith('\n')) return null;
  return rest.slice('---\n'.length, -1).split('\n---\n');
}

/** The contents a frame renders as pieces: v1 shows no body when all of it is empty (§13). */
const expectedPieces = (bundle: ContextBundle, frame: Frame): string[] => {
  const contents = bundle.items.map((i) => i.content);
  return frame === 'v1' && contents.join('') === '' && contents.length < 2 ? [] : contents;
};

/** How many lines of its own the frame renders: v1 counts its header lines among them. */
function ownLines(bundle: ContextBundle, frame: Frame): number {
  const n = bundle.items.length;
  if (frame === 'v2') return 2 + Math.max(n, 1);
  return 4 + (expectedPieces(bundle, 'v1').length > 0 ? n : 0);
}

/** The lines a lenient reader cutting with `split` takes for delimiters. */
export function delimiterLines(text: string, split: RegExp, tag: string | null): string[] {
  const lines = text.split(split);
  // The text's final newline leaves an empty last line, which no reader counts.
  if (tag === null) return lines.filter(v1Lookalike);
  return lines.filter((l) => asSeen(l).includes(tag.toUpperCase()));
}

/** The tag a v2 reader takes from the first line, and nothing else. */
export const tagOf = (text: string): string | null =>
  /^\[CONTEXT BUNDLE ([0-9a-f]{16})\]\n/.exec(text)?.[1] ?? null;

/** Every reader the text fools: `split` for the spec's split, else the line reader's name. */
export function readersFooled(text: string, bundle: ContextBundle, frame: Frame): string[] {
  const fooled: string[] = [];
  const want = expectedPieces(bundle, frame);
  const tag = frame === 'v2' ? tagOf(text) : null;
  const pieces = frame === 'v1' ? splitV1(text) : (readFrameV2(text)?.contents ?? null);
  if (frame === 'v2' && readFrameV2(text)?.bundleId !== bundle.id) fooled.push('split');
  else if (JSON.stringify(pieces) !== JSON.stringify(want)) fooled.push('split');
  if (frame === 'v2' && tag === null) return [...fooled, ...Object.keys(LINE_READERS)];
  for (const [name, split] of Object.entries(LINE_READERS))
    if (delimiterLines(text, split, tag).length !== ownLines(bundle, frame)) fooled.push(name);
  return fooled;
}
