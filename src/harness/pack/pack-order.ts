/**
 * The order `pack` prints a bundle's files in. A model reads from the top and may stop early, and a
 * person skims, so after the task the file most likely needed comes first: the strategy's own
 * ranking where it publishes one (`extras.ranked`, content identities best first), else the
 * pool's relevance. `--order path` prints them in the tree's order instead; a file's rank is its
 * place in the relevance order either way.
 */
import type { ContextCandidate } from '../../compiler/index.js';
import { parseFormId } from '../ingest/index.js';

export const PACK_ORDERS = ['relevance', 'path'] as const;
export type PackOrder = (typeof PACK_ORDERS)[number];

/** A bundle as printed: its items in order, and each file's rank (1 for the likeliest). */
export interface Ordered {
  readonly items: readonly ContextCandidate[];
  readonly rank: ReadonlyMap<string, number>;
}

const byCode = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/**
 * The bundle `live` (the compilation's items) in the order `order` prints it. `ranked` is what the
 * strategy published as `extras.ranked`, if anything; `pool` gives each file's chance (its likeliest
 * form's relevance) for the files the ranking does not list, ties by path. Items that are no file
 * (the task) come first, in bundle order.
 */
export function printOrder(
  live: readonly ContextCandidate[],
  pool: readonly ContextCandidate[],
  ranked: unknown,
  order: PackOrder,
): Ordered {
  const place = new Map<string, number>();
  if (Array.isArray(ranked))
    ranked.forEach((id, k) => {
      if (typeof id === 'string' && !place.has(id)) place.set(id, k);
    });
  const chance = new Map<string, number>();
  for (const c of pool)
    chance.set(c.content_identity, Math.max(c.relevance, chance.get(c.content_identity) ?? 0));
  const isFile = (c: ContextCandidate): boolean => parseFormId(c.candidate_id) !== null;
  const files = live.filter(isFile);
  const byRelevance = [...files].sort(
    (a, b) =>
      (place.get(a.content_identity) ?? Number.POSITIVE_INFINITY) -
        (place.get(b.content_identity) ?? Number.POSITIVE_INFINITY) ||
      (chance.get(b.content_identity) ?? 0) - (chance.get(a.content_identity) ?? 0) ||
      byCode(a.content_identity, b.content_identity),
  );
  const rank = new Map(byRelevance.map((c, k) => [c.candidate_id, k + 1]));
  const shown =
    order === 'relevance'
      ? byRelevance
      : [...files].sort((a, b) => byCode(a.content_identity, b.content_identity));
  return { items: [...live.filter((c) => !isFile(c)), ...shown], rank };
}
