import { createHash } from 'node:crypto';

/**
 * The bundle's content hash (docs/compiler.md §14): SHA-256 over each item's UTF-8 id, a NUL, its
 * UTF-8 content and a NUL, in bundle order. Order-sensitive on purpose; only ids and contents take
 * part.
 */
export function bundleHash(items: readonly { readonly id: string; readonly content: string }[]): string {
  const h = createHash('sha256');
  const nul = Buffer.from([0]);
  for (const item of items) {
    h.update(Buffer.from(item.id, 'utf8'));
    h.update(nul);
    h.update(Buffer.from(item.content, 'utf8'));
    h.update(nul);
  }
  return h.digest('hex');
}
