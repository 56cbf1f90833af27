/**
 * The README's headline table: the table `ctxbench study` prints after the reference run
 * (`headlineTable`), as Markdown, between two marker lines of README.md. `npm run reports` writes
 * it there from the reference run's summary.json, and a test compares the README with what this
 * makes of the committed reports/summary.json (itself drift-tested against a fresh study), so the
 * table a newcomer reads is never typed by hand.
 */
import type { StrategyStats } from '../types.js';
import { headlineTable } from './headline.js';
import { renderTable } from './table.js';

export const HEADLINE_START = '<!-- headline:start -->';
export const HEADLINE_END = '<!-- headline:end -->';

/** A run's summary.json, as `summary(rows)` writes it: the stats of each strategy, in run order. */
export interface RunSummary {
  readonly strategies: Readonly<Record<string, StrategyStats>>;
}

/** The headline of a run as Markdown, from its summary: what `study --format md` prints. */
export function headlineMarkdown(summary: RunSummary): string {
  return renderTable(headlineTable(new Map(Object.entries(summary.strategies))), 'md');
}

/**
 * `text` with everything between the marker lines replaced by `table`, the markers kept. The
 * markers must each stand on a line of their own, once, start before end: anything else is a
 * README edited out of shape, and guessing where the table goes would write it in the wrong place.
 */
export function withHeadline(text: string, table: string): string {
  const lines = text.split('\n');
  const at = (marker: string) => {
    const found = lines.flatMap((l, k) => (l === marker ? [k] : []));
    if (found.length !== 1) throw new Error(`${marker} must be one line of its own (found ${found.length})`);
    return found[0] as number;
  };
  const [start, end] = [at(HEADLINE_START), at(HEADLINE_END)];
  if (end < start) throw new Error(`${HEADLINE_END} comes before ${HEADLINE_START}`);
  const body = table.endsWith('\n') ? table.slice(0, -1) : table;
  return [...lines.slice(0, start + 1), body, ...lines.slice(end)].join('\n');
}
