/** Number formats of the report tables. */

/** Integers with thousands separators, as the book prints them. */
export const int = (n: number): string => n.toLocaleString('en-US');

export const fixed = (n: number | null, digits: number): string => (n === null ? '-' : n.toFixed(digits));

/** A signed figure: `+51.24`, `-210`, `0`. */
export const signed = (n: number | null, digits = 0): string => {
  if (n === null) return '-';
  const text = Math.abs(n).toFixed(digits);
  if (Number(text) === 0) return (0).toFixed(digits);
  return `${n > 0 ? '+' : '-'}${text}`;
};
