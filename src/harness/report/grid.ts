/**
 * report.html's grid: one cell per compilation (case x budget x strategy), coloured by outcome,
 * each carrying what the page shows when it is opened: the bundle's items, the rendered text and
 * the decision trace, read from compilations.jsonl. Details are capped per compilation and in
 * all, so a survey of 18,000 compilations still makes a page a browser opens; every cap is a
 * count, never a clock, and says where the whole record is. A packed page (packed-page.ts) holds
 * each text once, so its rendered texts are whole.
 */
import { isThere, linesOf } from '../corpus/index.js';
import { int, plural } from '../format.js';
import { columnOf, fieldsOf, headersOf, rowViolations } from '../metrics/index.js';
import type { Row } from '../types.js';
import { STRATEGY_ERROR } from '../vocabulary.js';
import { ownPiece, PagePacker } from './packed-page.js';

/** What a compilation came to, against what the corpus expected. */
export type GridOutcome = 'bundle' | 'refusal' | 'wrong-bundle' | 'wrong-refusal' | 'error';

/** The two outcome colours the charts (charts.ts) share with the legend. */
export const CORRECT_COLOUR = '#2e7d32';
export const REFUSAL_COLOUR = '#6a3d9a';

/** The grid's legend: each outcome's words and colour, in the order the legend lists them. */
export const OUTCOME_LEGEND: readonly {
  readonly outcome: GridOutcome;
  readonly label: string;
  readonly colour: string;
}[] = [
  { outcome: 'bundle', label: 'bundle, as expected', colour: CORRECT_COLOUR },
  { outcome: 'refusal', label: 'refusal, as expected', colour: REFUSAL_COLOUR },
  { outcome: 'wrong-bundle', label: 'bundle, a refusal expected', colour: '#ef6c00' },
  { outcome: 'wrong-refusal', label: 'refusal, not the expected outcome', colour: '#d81b60' },
  { outcome: 'error', label: 'strategy error', colour: '#212121' },
];

export function gridOutcome(r: Row): GridOutcome {
  if (r.reason === STRATEGY_ERROR) return 'error';
  if (r.success) return r.status_correct === true ? 'bundle' : 'wrong-bundle';
  return r.status_correct === true ? 'refusal' : 'wrong-refusal';
}

/**
 * The trace's columns, as the page's table heads them (the catalogue's labels, as `ctxbench trace`
 * heads them); each entry is a list of TRACE_FIELDS in this order.
 */
export const TRACE_COLUMNS = headersOf('page_trace');
const TRACE_FIELDS = fieldsOf('page_trace');

/** What the grid can be coloured by, beside the outcome: a field of every cell, and its words. */
export const COLOUR_MEASURES = [
  { field: 'must_recall', label: `${columnOf('must_recall').label}: red 0 to green 1` },
  { field: 'violations', label: `${columnOf('violations').label}: green none, darker red more` },
  {
    field: 'budget_use',
    label: `${columnOf('budget_use').label}: paler to darker blue up to the budget, red beyond it`,
  },
] as const;

/** The bundle item fields the page lists (the content itself is in the rendered text), each headed by its name. */
export const ITEM_COLUMNS = fieldsOf('items');

type Cell = string | number | boolean | null;

/** What opening a cell shows, beyond its row. */
export interface CellDetail {
  readonly bundle: { readonly id: Cell; readonly items: readonly (readonly Cell[])[] } | null;
  /** The rendered text; on a packed page, its pieces (packed-page.ts), none of it cut. */
  readonly text: string | readonly (string | number)[] | null;
  readonly trace: readonly (readonly Cell[])[];
  readonly traceTotal: number;
  /** A refusal's record as JSON text (capped), and its fields in words. */
  readonly failure: string | null;
  readonly refusal: readonly (readonly [string, string])[] | null;
  readonly notes: readonly string[];
}

/** One cell of the grid: its row's facts, and its details when the page holds them. */
export interface GridCell {
  readonly k: number;
  readonly case: string;
  readonly budget: string;
  readonly strategy: string;
  readonly outcome: GridOutcome;
  readonly reason: string | null;
  readonly expected: string;
  readonly budget_tokens: number;
  readonly rendered_tokens: number;
  readonly must_recall: number | null;
  readonly illegal: number | null;
  /** The six violation kinds summed; null on an error row. */
  readonly violations: number | null;
  /** Rendered over requested tokens; null without a bundle or a run without measures. */
  readonly budget_use: number | null;
  /** The cell's name in the page's address, `#cell=<case>/<budget>/<strategy>`. */
  readonly id: string;
  readonly extras: string;
  readonly detail: CellDetail | null;
  readonly missing: string | null;
}

/** Caps: characters of rendered text and of a JSON value, trace entries, and the page's details in all. */
export const CAPS = { text: 20_000, json: 4_000, trace: 300, total: 12_000_000 } as const;

const cut = (s: string, cap: number, where: string): string =>
  s.length <= cap
    ? s
    : ownPiece(
        `${s.slice(0, cap)}\n… ${s.length - cap} more ${plural(s.length - cap, 'character')}; the whole is in ${where}`,
      );

const obj = (x: unknown): Record<string, unknown> =>
  typeof x === 'object' && x !== null && !Array.isArray(x) ? (x as Record<string, unknown>) : {};

const scalar = (x: unknown): Cell =>
  typeof x === 'string' || typeof x === 'number' || typeof x === 'boolean' || x === null
    ? x
    : x === undefined
      ? null
      : JSON.stringify(x);

/**
 * A refusal as a reader takes it in: why, which candidates blocked it, what of the budget it
 * used, and the strategy's own words. Every value is text the page sets with `textContent`.
 */
function refusalFacts(f: Record<string, unknown>, where: string): (readonly [string, string])[] {
  const ids = Array.isArray(f.blocking_ids) ? f.blocking_ids.map(String) : [];
  const used = typeof f.budget_used === 'number' ? f.budget_used : null;
  const total = typeof f.budget_total === 'number' ? f.budget_total : null;
  const facts = [
    String(f.reason ?? '(none)'),
    ids.length === 0 ? '(none named)' : cut(ids.join(', '), CAPS.json, where),
    used === null ? '-' : total === null ? String(used) : `${used} of ${total}`,
    typeof f.diagnostic === 'string' && f.diagnostic !== '' ? cut(f.diagnostic, CAPS.json, where) : '(none)',
  ];
  return headersOf('refusal_facts').map((label, k) => [label, facts[k] as string] as const);
}

/** A compilations.jsonl line, boiled down to what the page shows (packed by `packer` when given). */
function detailOf(line: Record<string, unknown>, k: number, packer: PagePacker | undefined): CellDetail {
  const where = `compilations.jsonl line ${k + 1}`;
  const result = obj(line.result);
  const entries = Array.isArray(obj(result.trace).entries) ? (obj(result.trace).entries as unknown[]) : [];
  const items = Array.isArray(obj(line.bundle).items) ? (obj(line.bundle).items as unknown[]) : [];
  const notes: string[] = [];
  if (entries.length > CAPS.trace)
    notes.push(`the trace's first ${CAPS.trace} of ${entries.length} entries; the whole is in ${where}`);
  const rendered = typeof line.rendered_text === 'string' ? line.rendered_text : null;
  const text =
    rendered === null
      ? null
      : packer === undefined
        ? cut(rendered, CAPS.text, where)
        : packer.text(
            rendered,
            items.map((i) => obj(i).content),
          );
  const traceRow = (e: unknown) => TRACE_FIELDS.map((c) => scalar(obj(e)[c]));
  return {
    bundle:
      line.bundle === null || line.bundle === undefined
        ? null
        : {
            id: scalar(obj(line.bundle).id),
            items: items.map((item) => ITEM_COLUMNS.map((c) => scalar(obj(item)[c]))),
          },
    text,
    trace:
      packer === undefined
        ? entries.slice(0, CAPS.trace).map(traceRow)
        : packer.trace(entries.slice(0, CAPS.trace).map(traceRow)),
    traceTotal: entries.length,
    failure:
      result.failure === null || result.failure === undefined
        ? null
        : cut(JSON.stringify(result.failure, null, 2), CAPS.json, where),
    refusal:
      result.failure === null || result.failure === undefined
        ? null
        : refusalFacts(obj(result.failure), where),
    notes,
  };
}

/** The row's facts a cell shows whether or not its details fit. */
function cellOf(r: Row, k: number, detail: CellDetail | null, missing: string | null): GridCell {
  const expected = r.expected.success
    ? 'a bundle'
    : `a refusal${r.expected.reason ? ` (${r.expected.reason})` : ''}`;
  return {
    k,
    case: r.case,
    budget: r.budget,
    strategy: r.strategy,
    outcome: gridOutcome(r),
    reason: r.reason,
    expected,
    budget_tokens: r.budget_tokens,
    rendered_tokens: r.rendered_tokens,
    must_recall: r.must_recall,
    illegal: r.illegal_admission,
    violations: r.reason === STRATEGY_ERROR ? null : rowViolations(r),
    budget_use: r.measures?.budget_use ?? null,
    id: `${r.case}/${r.budget}/${r.strategy}`,
    extras: cut(JSON.stringify(r.extras, null, 2), CAPS.json, `rows.jsonl line ${k + 1}`),
    detail,
    missing,
  };
}

const NO_LINE = 'no compilation recorded for this row (no compilations.jsonl line)';

/**
 * Where a page's compilations come from: a compilations.jsonl, its lines in row order (as text,
 * or already read), or none.
 */
export type CompilationSource = string | Iterable<string | Record<string, unknown>> | null;

const linesFrom = (source: CompilationSource): Iterable<string | Record<string, unknown>> =>
  source === null ? [] : typeof source !== 'string' ? source : isThere(source) ? linesOf(source) : [];

/**
 * The grid's cells, read a line at a time in row order from a run's compilations.jsonl, so that
 * one read of it can feed more than the page. A line that is not the row's own compilation gives
 * no details; a packed page's details go through its packer.
 */
export class GridReader {
  readonly packer: PagePacker | undefined;
  private readonly rows: readonly Row[];
  private readonly details: (CellDetail | string)[] = [];
  private spent = 0;

  constructor(rows: readonly Row[], packed: boolean) {
    this.rows = rows;
    this.packer = packed ? new PagePacker() : undefined;
  }

  /** Whether every row has its line. */
  get full(): boolean {
    return this.details.length >= this.rows.length;
  }

  /** The next row's line: as text, or already read. */
  add(line: string | Record<string, unknown>): void {
    const { details, packer } = this;
    const k = details.length;
    if (k >= this.rows.length) return;
    if (line === '') {
      details.push(NO_LINE);
      return;
    }
    if (this.spent > CAPS.total) {
      details.push(
        `details of this and later compilations are left out (the page holds ${int(CAPS.total)} characters of them); see compilations.jsonl line ${k + 1}`,
      );
      return;
    }
    const r = this.rows[k] as Row;
    let parsed: Record<string, unknown>;
    try {
      parsed = typeof line === 'string' ? obj(JSON.parse(line)) : line;
    } catch {
      details.push(`compilations.jsonl line ${k + 1} is not JSON`);
      return;
    }
    if (parsed.case !== r.case || parsed.budget !== r.budget || parsed.strategy !== r.strategy) {
      details.push(`compilations.jsonl line ${k + 1} is not this compilation's`);
      return;
    }
    const d = detailOf(parsed, k, packer);
    this.spent += JSON.stringify(d).length;
    details.push(d);
  }

  /** The cells in row order; a row past the last line read has none. */
  cells(): GridCell[] {
    return this.rows.map((r, k) => {
      const d = this.details[k];
      if (d === undefined) return cellOf(r, k, null, NO_LINE);
      return typeof d === 'string' ? cellOf(r, k, null, d) : cellOf(r, k, d, null);
    });
  }
}

/**
 * The grid of `rows` with details from `compilations` (a compilations.jsonl or its lines, null
 * where there are none), packed or not.
 */
export function readGrid(rows: readonly Row[], compilations: CompilationSource, packed: boolean): GridReader {
  const grid = new GridReader(rows, packed);
  for (const line of linesFrom(compilations)) {
    if (grid.full) break;
    grid.add(line);
  }
  return grid;
}
