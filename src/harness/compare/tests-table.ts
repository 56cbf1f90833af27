/**
 * `compare`'s second table: each figure of the catalogue tested cell by cell (paired.ts), per
 * strategy. For people it lists the figures that differ somewhere, with the rates or means, the
 * mean difference and its 95% interval, McNemar's p for a yes or no, and whether the difference
 * is significant at 0.05; for programs every figure, each number in a column of its own.
 */

import { DIGITS, fixed, signed } from '../format.js';
import {
  ALPHA,
  type Kind,
  PAIRED_FIGURES,
  type PairedFigure,
  type PairedTest,
  RESAMPLES,
} from '../metrics/index.js';
import { isDataFormat, type Table, type TableFormat } from '../report/index.js';
import type { Comparison } from './runs.js';

/**
 * A mean of tokens reads with one place; every other mean or rate with a score's four, so that an
 * interval that excludes 0 never prints as reaching it (a mean of violations is a tenth or less).
 */
const kindOf = (f: PairedFigure): Kind => (f.unit === 'tokens' ? 'mean' : 'score');

const HEADERS = ['strategy', 'figure', 'cells', 'differ', 'A', 'B', 'B - A'];

export function testsTable(c: Comparison, format: TableFormat): Table {
  const all = c.headline.flatMap((d) =>
    PAIRED_FIGURES.map((f) => ({ strategy: d.strategy, f, t: d.tests[f.name] as PairedTest })),
  );
  if (isDataFormat(format))
    return {
      headers: [...HEADERS, 'low', 'high', 'p', 'A low', 'A high', 'B low', 'B high', 'significant'],
      rows: all.map(({ strategy, f, t }) => [
        strategy,
        f.name,
        t.cells,
        t.differ,
        t.a,
        t.b,
        t.interval?.delta ?? null,
        t.interval?.low ?? null,
        t.interval?.high ?? null,
        t.p,
        t.rate_a?.low ?? null,
        t.rate_a?.high ?? null,
        t.rate_b?.low ?? null,
        t.rate_b?.high ?? null,
        String(t.significant),
      ]),
    };
  const shown = all.filter(({ t }) => t.differ > 0);
  return {
    headers: [...HEADERS, '95% interval', 'p', `at ${ALPHA}`],
    rows: shown.map(({ strategy, f, t }) => {
      const digits = DIGITS[kindOf(f)];
      const i = t.interval;
      return [
        strategy,
        f.label,
        t.cells,
        t.differ,
        fixed(t.a, digits),
        fixed(t.b, digits),
        i === null ? null : signed(i.delta, digits),
        i === null ? null : `[${signed(i.low, digits)}, ${signed(i.high, digits)}]`,
        t.p === null ? null : fixed(t.p, DIGITS.score),
        t.significant ? 'significant' : '-',
      ];
    }),
    kinds: [undefined, undefined, 'count', 'count'],
  };
}

/** The line above the table: what was tested, how, and what the rest did. */
export function testsNote(c: Comparison): string {
  const figures = c.headline.length * PAIRED_FIGURES.length;
  const differ = c.headline.reduce(
    (n, d) => n + PAIRED_FIGURES.filter((f) => (d.tests[f.name]?.differ ?? 0) > 0).length,
    0,
  );
  return (
    `\npaired tests over the cells both hold (B - A): a yes or no by McNemar's exact test, every mean ` +
    `difference with a 95% paired bootstrap interval (${RESAMPLES.toLocaleString('en-US')} resamples, seed ${c.seed}); ` +
    `${differ} of ${figures} figures differ in some cell, the rest are the same in every cell and not listed:\n`
  );
}
