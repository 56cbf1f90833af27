/** Number formats of the report tables. */

/** Integers with thousands separators, as the book prints them. */
export const int = (n: number): string => n.toLocaleString('en-US');

/** A figure to `digits` places; a value that rounds to zero prints as zero, never `-0.0`. */
export const fixed = (n: number | null, digits: number): string => {
  if (n === null) return '-';
  const text = n.toFixed(digits);
  return Number(text) === 0 ? (0).toFixed(digits) : text;
};

/** A signed figure: `+51.24`, `-210`, `0`. */
export const signed = (n: number | null, digits = 0): string => {
  if (n === null) return '-';
  const text = Math.abs(n).toFixed(digits);
  if (Number(text) === 0) return (0).toFixed(digits);
  return `${n > 0 ? '+' : '-'}${text}`;
};

/** A count and its noun, agreeing: `1 candidate`, `2,051 candidates`, `1 strategy`, `3 strategies`. */
export function count(n: number, noun: string, plural?: string): string {
  const many = plural ?? (/[^aeiou]y$/.test(noun) ? `${noun.slice(0, -1)}ies` : `${noun}s`);
  return `${int(n)} ${n === 1 ? noun : many}`;
}
