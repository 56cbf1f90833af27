/**
 * A bench run against a saved baseline, as a pure function of the two runs' records. A task
 * counts as slower only when its median grew by more than all three of:
 *
 * - MIN_SLOWDOWN of the baseline's median (10%): smaller changes are not worth a red build;
 * - SPREAD_FACTOR times the two runs' median absolute deviations added, in milliseconds: what
 *   the runs' own noise explains. Absolute, not relative to each median: divided by a slower
 *   run's larger median, a noisy run's spread would shrink exactly when it matters;
 * - MIN_SLOWDOWN_MS (1 ms). Per-case tasks take tenths of a millisecond: in three pairs of runs
 *   of the same code on a busy machine (load average 7 to 18 on 2 CPUs) their medians moved by
 *   up to 0.8 ms (up to 3.5 times); 6 to 30 tasks a pair grew by more than 10% and 3 times
 *   their spread, all but one of them by less than 1 ms. A real slow-down in them still shows
 *   in the study task, which runs every case of every strategy.
 *
 * Only tasks in both runs are compared; a task in one run only is listed once, as such, never as
 * a regression. A changed outcome is a regression of its own, however fast.
 */
import { count, DIGITS, figure, signed } from '../format.js';
import type { Table } from '../report/index.js';
import type { BenchRecord } from './bench-tasks.js';

/** Slow-downs under 10% are never flagged; noisier tasks need a larger one. */
export const MIN_SLOWDOWN = 0.1;
/** Slow-downs under this many milliseconds are never flagged, whatever the ratio. */
export const MIN_SLOWDOWN_MS = 1;
/** How many times the two runs' added spread a slow-down must exceed. */
export const SPREAD_FACTOR = 3;

/** `both`: compared; `new`: only in this run; `gone`: only in the baseline. */
export type Presence = 'both' | 'new' | 'gone';

export interface Comparison {
  readonly name: string;
  readonly presence: Presence;
  /** Medians in milliseconds; null on the side where the task did not run. */
  readonly baseline_ms: number | null;
  readonly current_ms: number | null;
  /** current - baseline, in milliseconds. */
  readonly diff_ms: number | null;
  /** current / baseline; Infinity when the baseline median is 0 and the current one is not. */
  readonly ratio: number | null;
  /** The current median in milliseconds above which the task counts as slower. */
  readonly flag_above_ms: number | null;
  readonly slower: boolean;
  readonly changed: boolean;
  readonly detail: string;
}

/** Milliseconds as every table shows them (harness/format.ts). */
const ms = (x: number): string => figure(x, 'ms');
const signedMs = (x: number): string => signed(x, DIGITS.ms);
const times = (r: number): string => (Number.isFinite(r) ? `${figure(r, 'factor')}x` : '-');

const oneSide = (r: BenchRecord, presence: 'new' | 'gone'): Comparison => ({
  name: r.name,
  presence,
  baseline_ms: presence === 'gone' ? r.median_ms : null,
  current_ms: presence === 'new' ? r.median_ms : null,
  diff_ms: null,
  ratio: null,
  flag_above_ms: null,
  slower: false,
  changed: false,
  detail: presence === 'new' ? 'only in this run' : 'only in the baseline',
});

function compareOne(r: BenchRecord, b: BenchRecord): Comparison {
  const base = b.median_ms;
  const diff = r.median_ms - base;
  const margin = Math.max(MIN_SLOWDOWN * base, SPREAD_FACTOR * (r.mad_ms + b.mad_ms), MIN_SLOWDOWN_MS);
  const flagAbove = base + margin;
  const ratio = base > 0 ? r.median_ms / base : r.median_ms > 0 ? Number.POSITIVE_INFINITY : 1;
  const slower = r.median_ms > flagAbove;
  const changed = r.outcome !== b.outcome;
  const details = [
    ...(changed ? [`outcome changed: ${b.outcome} -> ${r.outcome}`] : []),
    ...(slower
      ? [
          `slower: ${ms(base)} ms -> ${ms(r.median_ms)} ms (${signedMs(diff)} ms, ${times(ratio)}; flagged above ${ms(flagAbove)} ms)`,
        ]
      : []),
  ];
  return {
    name: r.name,
    presence: 'both',
    baseline_ms: base,
    current_ms: r.median_ms,
    diff_ms: diff,
    ratio,
    flag_above_ms: flagAbove,
    slower,
    changed,
    detail: details.join('; '),
  };
}

/**
 * Every task of either run, once: this run's in its order (compared, or only in this run), then
 * those only in the baseline, in its order. A name repeated within a run counts once, its last
 * record winning, as a Map keeps it.
 */
export function compareBench(
  current: readonly BenchRecord[],
  baseline: readonly BenchRecord[],
): Comparison[] {
  const before = new Map(baseline.map((r) => [r.name, r]));
  const now = new Map(current.map((r) => [r.name, r]));
  const out: Comparison[] = [];
  for (const r of now.values()) {
    const b = before.get(r.name);
    out.push(b === undefined ? oneSide(r, 'new') : compareOne(r, b));
  }
  for (const b of before.values()) if (!now.has(b.name)) out.push(oneSide(b, 'gone'));
  return out;
}

/** Whether the comparison fails the run: a flagged slow-down or a changed outcome. */
export const isRegression = (c: Comparison): boolean => c.slower || c.changed;

const verdict = (c: Comparison): string =>
  c.presence !== 'both'
    ? c.detail
    : [...(c.changed ? ['OUTCOME CHANGED'] : []), ...(c.slower ? ['SLOWER'] : [])].join(', ') || 'ok';

/** A bench run's records, one row per task. */
export function recordsTable(records: readonly BenchRecord[]): Table {
  return {
    headers: ['task', 'median ms', 'mad ms', 'samples', 'outcome'],
    // The outcome cut short: a bundle's hash in full would double the table's width.
    rows: records.map((r) => [r.name, r.median_ms, r.mad_ms, r.samples, r.outcome.slice(0, 24)]),
    kinds: [undefined, 'ms', 'ms', 'count', undefined],
    align: ['left', 'right', 'right', 'right', 'left'],
  };
}

/** The comparison as a table, milliseconds beside each ratio. */
export function comparisonTable(comparisons: readonly Comparison[]): Table {
  return {
    headers: ['task', 'baseline ms', 'current ms', 'diff ms', 'ratio', 'flag above ms', 'verdict'],
    rows: comparisons.map((c) => [
      c.name,
      c.baseline_ms,
      c.current_ms,
      c.diff_ms,
      // Over a baseline of 0 ms the ratio is infinite: no figure, as where the task ran once.
      c.ratio !== null && Number.isFinite(c.ratio) ? c.ratio : null,
      c.flag_above_ms,
      verdict(c),
    ]),
    kinds: [undefined, 'ms', 'ms', 'ms', 'factor', 'ms', undefined],
    signed: [false, false, false, true, false, false, false],
    align: ['left', 'right', 'right', 'right', 'right', 'right', 'left'],
  };
}

/** The line after the comparison's table: how many tasks were compared, and what it found. */
export function comparisonSummary(comparisons: readonly Comparison[]): string {
  const many = (p: (c: Comparison) => boolean) => comparisons.filter(p).length;
  const compared = many((c) => c.presence === 'both');
  const onlyNew = many((c) => c.presence === 'new');
  const onlyGone = many((c) => c.presence === 'gone');
  const sides = [
    ...(onlyNew > 0 ? [`${onlyNew} only in this run`] : []),
    ...(onlyGone > 0 ? [`${onlyGone} only in the baseline`] : []),
  ];
  return (
    `${count(compared, 'task')} compared: ${many((c) => c.slower)} slower, ${count(
      many((c) => c.changed),
      'outcome',
    )} changed` +
    ` (slower means more than ${MIN_SLOWDOWN * 100}%, ${SPREAD_FACTOR} x the two runs' spread and ${MIN_SLOWDOWN_MS} ms)` +
    (sides.length > 0 ? `; ${sides.join(', ')}, not compared` : '') +
    '\n'
  );
}
