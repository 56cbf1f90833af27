/** Token costs (docs/compiler.md §3): the word-count estimate and the costs derived from it. */
import type { CompilerPolicy, ContextCandidate, ContextRequest } from './types.js';

/** Python's `round()` to an integer: exact halves go to the even neighbour. */
export function roundHalfEven(x: number): number {
  const floor = Math.floor(x);
  const diff = x - floor; // exact for the magnitudes a word count can reach
  if (diff > 0.5) return floor + 1;
  if (diff < 0.5) return floor;
  return floor % 2 === 0 ? floor : floor + 1;
}

/**
 * The reference's word-count estimate: 1.3 tokens per whitespace-separated word, rounded half to
 * even, at least 1 for non-empty text. An approximation, not a tokenizer: the engine only uses it
 * for the header, decorations and separators; declared token counts are never re-estimated.
 */
export function estimateTokens_APPROX(text: string): number {
  const known = estimates.get(text);
  if (known !== undefined) return known;
  const words = text.split(/\s+/).filter((w) => w.length > 0).length;
  const tokens = words === 0 ? 0 : Math.max(1, roundHalfEven(words * 1.3));
  // Decorations and headers repeat endlessly; a pure function may remember (within bounds).
  if (estimates.size >= 4096) estimates.clear();
  estimates.set(text, tokens);
  return tokens;
}

const estimates = new Map<string, number>();

export const TOKEN_PROVENANCE = 'approximation';
export const SEPARATOR = '\n---\n';
export const SEPARATOR_COST = estimateTokens_APPROX(SEPARATOR);

/**
 * Charged once per bundle although the text renderer never prints it (a reference quirk). Under
 * the v2 frame the frame's own lines are charged too, since the v1 frame was never priced.
 */
export const headerCost = (request: ContextRequest, policy: CompilerPolicy): number =>
  estimateTokens_APPROX(`${request.request_id} ${request.task_id} ${policy.policy_version}`) +
  (policy.frame === 'v2'
    ? estimateTokens_APPROX(frameV2(`${request.request_id}-bundle`, 'TAG', 'N', []))
    : 0);

/**
 * The v2 frame around `contents` (docs/compiler.md §17.6). Every delimiter carries `tag`, derived
 * from the bundle hash, which covers every content: a content cannot contain a delimiter without
 * containing a digest of itself. The separator stays one word, so its cost is the v1 separator's.
 */
export function frameV2(bundleId: string, tag: string, count: string, contents: readonly string[]): string {
  const lines = [`[CONTEXT BUNDLE ${tag}]`, `id: ${bundleId}`, `items: ${count}`, `---${tag}`];
  if (contents.length > 0) lines.push(contents.join(`\n---${tag}\n`));
  lines.push(`[/CONTEXT BUNDLE ${tag}]`);
  return `${lines.join('\n')}\n`;
}

export const decorationCost = (c: ContextCandidate): number =>
  estimateTokens_APPROX(`${c.source_kind} ${c.kind}`);

/** What one item costs in a rendered bundle: its declared count plus its decoration. */
export const itemRenderCost = (c: ContextCandidate): number => c.token_count + decorationCost(c);
