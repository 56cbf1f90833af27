/**
 * What every entry of the metric catalogue says beside its name: the label a table heads it with,
 * how it is written, its unit, which way is better, and the values it can take. Apart so that each
 * family of the catalogue (catalogue.ts names them) is a module of its own.
 */

/** How a figure is written: harness/format.ts gives each kind its places. */
export type Kind = 'count' | 'score' | 'mean' | 'factor' | 'percent' | 'ms';

/** Which way is better; null where neither is (how many rows a strategy has). */
export type Direction = 'higher' | 'lower' | null;

/** What one unit of a figure is: compilations (rows), admitted items, tokens, or a ratio. */
export type Unit = 'compilations' | 'items' | 'tokens' | 'fraction' | 'ratio';

/**
 * The values a figure can take: from `low` to `high`, both included (an infinite bound for none),
 * whole numbers only where `integer`. A yes or no is 0 or 1. A property test holds every row of
 * every shipped strategy, and of random pools, within its figures' ranges.
 */
export interface Range {
  readonly low: number;
  readonly high: number;
  readonly integer: boolean;
}

/** The ranges the catalogue's figures take, each named once. */
export const RANGES = {
  /** A share of something: recall, precision, nDCG, a mean of yes or no. */
  fraction: { low: 0, high: 1, integer: false },
  /** A yes or no, as 0 or 1. */
  yesNo: { low: 0, high: 1, integer: true },
  /** A count of compilations, items or tokens. */
  count: { low: 0, high: Number.POSITIVE_INFINITY, integer: true },
  /** A quantity that is never negative but need not be whole: a mean of counts, a ratio. */
  nonNegative: { low: 0, high: Number.POSITIVE_INFINITY, integer: false },
  /** A whole number of either sign: tokens left under the budget, negative over it. */
  signedCount: { low: Number.NEGATIVE_INFINITY, high: Number.POSITIVE_INFINITY, integer: true },
  /** Any number: a mean of signed counts, a difference of means. */
  real: { low: Number.NEGATIVE_INFINITY, high: Number.POSITIVE_INFINITY, integer: false },
} as const satisfies Record<string, Range>;

/** Whether `x` lies in `range` (a yes or no read as 0 or 1). */
export const within = (range: Range, x: number | boolean): boolean => {
  const n = Number(x);
  return !Number.isNaN(n) && n >= range.low && n <= range.high && (!range.integer || Number.isInteger(n));
};

/** The range of a mean of values in `range`: the same bounds, no longer whole. */
export const meanRange = (range: Range): Range => ({ ...range, integer: false });

/** The range written for people: `[0, 1]`, `integers in [0, inf)`. */
export const rangeText = (r: Range): string => {
  const bound = (x: number) => (Number.isFinite(x) ? String(x) : x > 0 ? 'inf' : '-inf');
  const text = `${Number.isFinite(r.low) ? '[' : '('}${bound(r.low)}, ${bound(r.high)}${Number.isFinite(r.high) ? ']' : ')'}`;
  return r.integer ? `integers in ${text}` : text;
};

export interface Described {
  /** Lower-case words, the same in every table that shows the figure. */
  readonly label: string;
  readonly kind: Kind;
  /** What one unit of the figure is. */
  readonly unit: Unit;
  readonly direction: Direction;
  /** The values it can take. */
  readonly range: Range;
}
