/**
 * The number formats of everything people read: the CLI's text and Markdown tables, report.md,
 * survey.md, and the lines around them. One rule, so that a figure reads the same in every table:
 *
 * - counts (compilations, cells, violations, tokens) are whole numbers with thousands separators,
 *   however small the largest of their column: `999`, `2,051`, `5,318,541`;
 * - every other figure has the fixed number of places of its kind (DIGITS), its integer part
 *   separated the same way: `0.8652`, `662.2`, `9.77`, `12.5%`, `1,234.567`;
 * - a difference carries its sign (`+51.2`, `-210`), and nothing rounds to `-0`;
 * - a figure that does not exist (a mean of nothing) is `-`.
 *
 * CSV and JSON, and every data file (rows.csv, summary.json, survey.json), keep numbers as numbers.
 */

import type { Kind } from './metrics/index.js';

/** Places after the point, per kind of figure. */
export const DIGITS = {
  /** Compilations, cells, candidates, violations, tokens. */
  count: 0,
  /** Recall, precision, relevance and the gaps in them: figures near 0 to 1, or sums of them. */
  score: 4,
  /** Means of counts: budget slack, token gaps. */
  mean: 1,
  /** One figure over another: declared over real tokens, a bench median over its baseline. */
  factor: 2,
  /** Percentages, written with their `%`. */
  percent: 1,
  /** Milliseconds: a per-case task takes tenths of one, so three places keep two figures. */
  ms: 3,
} as const satisfies Record<Kind, number>;

/** `-1234567.5` as `-1,234,567.5`: separators in the integer part only. */
const separated = (text: string): string =>
  text.replace(/^-?\d+/, (whole) => whole.replace(/\B(?=(\d{3})+$)/g, ','));

/** A figure to `digits` places, separated; a value that rounds to zero prints as zero, never `-0.0`. */
export const fixed = (n: number | null, digits: number): string => {
  if (n === null || Number.isNaN(n)) return '-';
  if (!Number.isFinite(n)) return n > 0 ? 'inf' : '-inf';
  const text = n.toFixed(digits);
  return separated(Number(text) === 0 ? (0).toFixed(digits) : text);
};

/** A count: `999`, `2,051`. */
export const int = (n: number): string => fixed(n, DIGITS.count);

/** A figure of a kind: `figure(0.86517, 'score')` is `0.8652`. */
export const figure = (n: number | null, kind: Kind): string => fixed(n, DIGITS[kind]);

/** A signed figure: `+51.24`, `-1,176`, `0`. */
export const signed = (n: number | null, digits: number = DIGITS.count): string => {
  const text = fixed(n === null ? null : Math.abs(n), digits);
  if (n === null || Number(text.replace(/,/g, '')) === 0) return text;
  return `${n > 0 ? '+' : '-'}${text}`;
};

/** A share as a percentage: `percent(0.125)` is `12.5%`. */
export const percent = (share: number | null): string =>
  share === null ? '-' : `${fixed(100 * share, DIGITS.percent)}%`;

/** The noun that agrees with `n`: `plural(1, 'entry')` is `entry`, `plural(3, 'entry')` is `entries`. */
export function plural(n: number, noun: string, many?: string): string {
  if (n === 1) return noun;
  return many ?? (/[^aeiou]y$/.test(noun) ? `${noun.slice(0, -1)}ies` : `${noun}s`);
}

/** A count and its noun, agreeing: `1 candidate`, `2,051 candidates`, `1 strategy`, `3 strategies`. */
export const count = (n: number, noun: string, many?: string): string => `${int(n)} ${plural(n, noun, many)}`;
