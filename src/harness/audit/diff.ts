/** Equal as JSON text: key order counts, unlike firstDifference. */
export const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

/**
 * The first place two parsed JSON values differ, as a path (`$.a[2].b`), or null when they are
 * structurally equal. Key order is irrelevant and numbers compare by value (`1` equals `1.0`).
 */
export function firstDifference(a: unknown, b: unknown, at = '$'): string | null {
  if (a === b) return null;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b)) return at;
    if (a.length !== b.length) return `${at} (length ${a.length} vs ${b.length})`;
    for (let k = 0; k < a.length; k++) {
      const d = firstDifference(a[k], b[k], `${at}[${k}]`);
      if (d !== null) return d;
    }
    return null;
  }
  if (typeof a === 'object' && typeof b === 'object' && a !== null && b !== null) {
    const ka = Object.keys(a).sort();
    const kb = Object.keys(b).sort();
    const missing = ka.find((k) => !kb.includes(k)) ?? kb.find((k) => !ka.includes(k));
    if (missing !== undefined) return `${at}.${missing} (present on one side only)`;
    for (const k of ka) {
      const d = firstDifference(
        (a as Record<string, unknown>)[k],
        (b as Record<string, unknown>)[k],
        `${at}.${k}`,
      );
      if (d !== null) return d;
    }
    return null;
  }
  return `${at} (${JSON.stringify(a)} vs ${JSON.stringify(b)})`;
}
