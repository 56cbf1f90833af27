/**
 * From the live list to what leaves the compiler: the rendered cost that the budget is checked
 * against (docs/compiler.md §11.2), the bundle record (§13) and the text renderer (§13).
 */

import type {
  CompilerPolicy,
  ContextBundle,
  ContextCandidate,
  ContextRequest,
  Frame,
} from './compiler-types.js';
import { SCHEMA } from './compiler-vocabulary.js';
import { frameV2, frameV2Tag } from './frame.js';
import { bundleHash } from './hash.js';
import { makeBundle } from './read-results.js';
import { headerCost, itemRenderCost, SEPARATOR, separatorCost, TOKEN_PROVENANCE } from './tokens.js';

/**
 * The exact cost of a rendered bundle: every item with its decoration, a separator between
 * neighbours and the header. Admission prices only declared counts, so a set that fits at
 * admission can still overflow here (docs/compiler.md §11.2).
 */
export function renderedCost(
  live: readonly ContextCandidate[],
  request: ContextRequest,
  policy: CompilerPolicy,
): number {
  let total = headerCost(request, policy);
  for (const [k, c] of live.entries()) total += renderedIncrement(c, k, policy);
  return total;
}

/** What one more item adds to a rendered bundle that already holds `count` items. */
export const renderedIncrement = (c: ContextCandidate, count: number, policy: CompilerPolicy): number =>
  itemRenderCost(c, policy) + (count > 0 ? separatorCost(policy) : 0);

/** The item a candidate makes at `position` of a bundle, costing `tokenCount`. */
export const bundleItem = (c: ContextCandidate, position: number, tokenCount: number) => ({
  schema_version: SCHEMA.item,
  id: c.candidate_id,
  source: c.source_kind,
  kind: c.kind,
  content: c.content,
  position,
  token_count: tokenCount,
  token_provenance: TOKEN_PROVENANCE,
  authority: null,
  scope: null,
  observed_at: null,
  semantic_id: null,
  ref: null,
});

/**
 * The bundle record for candidates already in layout order; each item's `token_count` is its
 * render cost under the policy's overhead tokenizer.
 */
export function buildBundle(
  ordered: readonly ContextCandidate[],
  request: ContextRequest,
  policy: CompilerPolicy,
): ContextBundle {
  const items = ordered.map((c, position) => bundleItem(c, position, itemRenderCost(c, policy)));
  return makeBundle({
    schema_version: SCHEMA.bundle,
    id: `${request.request_id}-bundle`,
    items,
    created_at: request.created_at,
    layout_trace: items.map((i) => i.id),
    evidence_class: 'synthetic',
    provenance: null,
  });
}

export const hashBundle = (bundle: ContextBundle): string => bundleHash(bundle.items);

/** The v2 frame's tag: 64 bits of a digest of everything the frame renders but the tag (§17.6). */
export const frameTag = (bundle: ContextBundle): string =>
  frameV2Tag(
    bundle.id,
    bundle.items.map((i) => i.content),
  );

/**
 * The bundle as text, in the policy's frame: a fixed frame and the contents joined by separators.
 * No per-item labels, and none of the header or decorations that the rendered cost charges for.
 */
export function renderBundleText(bundle: ContextBundle, frame: Frame = 'v1'): string {
  if (frame === 'v2')
    return frameV2(
      bundle.id,
      frameTag(bundle),
      String(bundle.items.length),
      bundle.items.map((i) => i.content),
    );
  const lines = ['[CONTEXT BUNDLE]', `id: ${bundle.id}`, `items: ${bundle.items.length}`];
  const body = bundle.items.map((i) => i.content).join(SEPARATOR);
  if (body.length > 0) lines.push('---', body);
  lines.push('[/CONTEXT BUNDLE]');
  return `${lines.join('\n')}\n`;
}
