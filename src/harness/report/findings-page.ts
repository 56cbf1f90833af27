/**
 * docs/findings.md from a template and a run: every figure in the document is a placeholder the
 * run fills, so the text cannot drift from the results (a test renders it again and compares).
 *
 * The placeholders are listed in docs/cli.md (`ctxbench findings`). They are filled in one pass
 * (a filled-in text is never read again as a template); braces around anything else are left as
 * they are, unless they hold a `/` (a placeholder mistyped); a placeholder naming nothing in the
 * runs is an error, with its line, never a blank.
 */

import { figure, int } from '../format.js';
import {
  columnOf,
  FIGURES,
  type Figure,
  rowMetric,
  rowViolations,
  statsByStrategy,
  strategiesOf,
} from '../metrics/index.js';
import type { Row } from '../types.js';
import { BUDGETS } from '../vocabulary.js';
import {
  candidate,
  type FindingsRun,
  fail,
  rateOf,
  repositoryView,
  TemplateError,
} from './findings-parts.js';
import { strategyTable } from './headline.js';
import { foundFigure, localizationTableAt, mcnemarFigure } from './localization.js';
import { markdownTable, renderTable, shownCells, type Table } from './table.js';

export type { FindingsRun } from './findings-parts.js';

type Value = number | boolean | string | null;

/** A placeholder the run cannot fill, with the template line it stands on. */
export class FindingsError extends Error {
  readonly where: string;
  constructor(line: number, detail: string) {
    super(`findings: line ${line}: ${detail}`);
    this.where = `line ${line}: ${detail}`;
  }
}

const outcome = (r: Row): string =>
  r.success ? `bundle of ${int(r.rendered_tokens)}` : `refused ${r.reason}`;

/** A metric of one row, or undefined when the row has no such field. */
function metric(r: Row, name: string): Value | undefined {
  if (name === 'outcome') return outcome(r);
  if (name === 'refused') return !r.success;
  if (name === 'compilations') return 1;
  if (name === 'violations') return rowViolations(r);
  if (name === 'illegal') return r.success && (r.audit === null ? null : !r.audit.legal);
  if (name === 'admitted') return r.admitted.join(', ');
  if (name === 'unproven') return r.extras.proven_optimal === false;
  const v = (r as unknown as Record<string, unknown>)[name];
  return typeof v === 'number' || typeof v === 'boolean' || typeof v === 'string' || v === null
    ? v
    : undefined;
}

/** Fractions (recall, precision, as the catalogue says) are written as scores and never summed. */
const isFraction = (name: string): boolean => rowMetric(name)?.kind === 'score';

function show(name: string, v: Value): string {
  if (v === null) return '-';
  if (typeof v === 'boolean') return v ? 'yes' : 'no';
  if (typeof v === 'string') return v;
  return isFraction(name) ? figure(v, 'score') : int(v);
}

/** The rows a placeholder names; an empty selection is an error in the template. */
function select(run: FindingsRun, kase: string, budget: string, strategy: string): Row[] {
  const rows = run.rows.filter(
    (r) =>
      (kase === '*' || r.case === kase) &&
      (budget === '*' || r.budget === budget) &&
      (strategy === '*' || r.strategy === strategy),
  );
  return rows.length > 0 ? rows : fail('names no compilation of the run');
}

const FIGURE = /^(?:([\w.@-]+):)?([\w*-]+)\/([\w*-]+)\/([\w*+-]+)\.(\w+)$/;

/** The run a placeholder names, or the document's own when it names none. */
function runNamed(runs: Runs, name: string | undefined): FindingsRun {
  if (name === undefined) return runs.main;
  const [base, view] = name.split('@') as [string, string | undefined];
  const run =
    runs.named.get(base) ?? fail(`names no run "${base}" (runs: ${[...runs.named.keys()].join(', ')})`);
  return view === undefined ? run : repositoryView(run, view);
}

function figureOf(runs: Runs, spec: string): string {
  const m = FIGURE.exec(spec) ?? fail('is not [RUN:]CASE/BUDGET/STRATEGY.metric');
  type Spec = [string, string | undefined, string, string, string, string];
  const [, named, kase, budget, strategy, name] = m as unknown as Spec;
  const rows = select(runNamed(runs, named), kase, budget, strategy);
  const values = rows.map((r) => metric(r, name));
  if (values.some((v) => v === undefined)) fail(`no metric ${name}`);
  if (rows.length === 1) return show(name, values[0] as Value);
  if (isFraction(name) || values.some((v) => typeof v === 'string'))
    fail(`${name} is not summed over several rows: name one case, budget and strategy`);
  if (values.some((v) => v === null)) fail(`${name} is missing in some of the rows it would sum`);
  return show(
    name,
    values.reduce<number>((sum, v) => sum + (v === true ? 1 : (v as number | false) || 0), 0),
  );
}

/** A metric's words in a table cell: its catalogue label (`must recall`), or its name. */
const label = (name: string): string => rowMetric(name)?.label ?? name;

function outcomes(run: FindingsRun, args: readonly string[]): string {
  if (args.length < 1 || args.length > 2) fail('needs a case and at most one comma-separated metric list');
  const [kase, list] = args as [string, string | undefined];
  const names = list === undefined ? [] : list.split(',');
  const rows = select(run, kase, '*', '*');
  // A cell holds figures; text metrics (outcome, admitted) would repeat or swamp it.
  for (const name of names) {
    const v = metric(rows[0] as Row, name);
    if (v === undefined || typeof v === 'string') fail(`no table metric "${name}"`);
  }
  const strategies = strategiesOf(rows);
  const cell = (r: Row | undefined): string => {
    if (!r) return '-';
    if (!r.success) return outcome(r);
    return [outcome(r), ...names.map((n) => `${label(n)} ${show(n, metric(r, n) ?? null)}`)].join(', ');
  };
  const body = strategies.map((s) => [
    s,
    ...BUDGETS.map((b) => cell(rows.find((r) => r.strategy === s && r.budget === b))),
  ]);
  const budgets = BUDGETS.map((b) => `${b} (${int(rows.find((r) => r.budget === b)?.budget_tokens ?? 0)})`);
  const key =
    names.length > 0 ? `\n\nBeside each bundle's rendered tokens: ${names.map(label).join(', ')}.` : '';
  return `${markdownTable([columnOf('strategy').label, ...budgets], body).trimEnd()}${key}`;
}

interface Entry {
  readonly candidate_id: string;
  readonly decision: string;
  readonly reason_code: string;
  readonly reason_detail: string;
  readonly dependency_closure?: readonly string[];
}

interface Result {
  readonly trace?: { readonly entries?: readonly Entry[] };
  readonly failure?: {
    readonly reason: string;
    readonly blocking_ids?: readonly string[];
    readonly diagnostic?: string;
  } | null;
}

function resultOf(run: FindingsRun, kase?: string, budget?: string, strategy?: string): Result {
  const line = run.compilations.find(
    (c) => c.case === kase && c.budget === budget && c.strategy === strategy,
  );
  return (
    (line?.result as Result | undefined) ??
    fail('names no compilation of the run (or it has no compilations.jsonl)')
  );
}

const entryText = (e: Entry): string => `${e.decision} (${e.reason_code}, "${e.reason_detail}")`;

function decision(run: FindingsRun, args: readonly string[]): string {
  if (args.length !== 4) fail('needs CASE BUDGET STRATEGY CANDIDATE');
  const [kase, budget, strategy, id] = args;
  const entries = resultOf(run, kase, budget, strategy).trace?.entries ?? [];
  const entry = entries.find((e) => e.candidate_id === id) ?? fail(`no trace entry for ${id}`);
  const deps = (entry.dependency_closure ?? []).map((d) => {
    const own = entries.find((e) => e.candidate_id === d);
    return `\`${d}\`${own ? `, itself ${entryText(own)}` : ''}`;
  });
  const named = deps.length > 0 ? `; its dependencies: ${deps.join('; ')}` : '';
  return `\`${entry.candidate_id}\`: ${entryText(entry)}${named}`;
}

function refusal(run: FindingsRun, args: readonly string[]): string {
  if (args.length !== 3) fail('needs CASE BUDGET STRATEGY');
  const failure = resultOf(run, ...args).failure ?? fail('is not a refusal');
  const blocking = (failure.blocking_ids ?? []).map((id) => `\`${id}\``).join(', ');
  return `${failure.reason}${blocking ? `, blocking ${blocking}` : ''}${failure.diagnostic ? `: "${failure.diagnostic}"` : ''}`;
}

const catalogue = new Map(FIGURES.map((f) => [f.name, f]));

/** Catalogue figures, a row per strategy, over one run's rows at one budget (`*`: every budget). */
function statsOf(runs: Runs, args: readonly string[]): Table {
  if (args.length !== 4) fail('needs RUN BUDGET STRATEGY,... FIGURE,...');
  const [named, budget, strategies, figures] = args as [string, string, string, string];
  const run = runNamed(runs, named);
  const names = strategies.split(',');
  // Not `*`, which select reads as every strategy: here it would be a strategy of no rows, a 0.
  for (const n of names) select(run, '*', budget, n === '*' ? fail('names no strategy `*`') : n);
  const shown = figures
    .split(',')
    .map((f): Figure => catalogue.get(f) ?? fail(`no figure "${f}" in the metric catalogue`));
  const rows = run.rows.filter((r) => budget === '*' || r.budget === budget);
  return strategyTable(names, statsByStrategy(rows, names), shown);
}

/** `found RUN BUDGET STRATEGY FIGURE [minus N]`: one figure of the localization table. */
function found(runs: Runs, args: readonly string[]): string {
  const [named, budget, strategy, name, how, n] = args as [string, string, string, string, string?, string?];
  if (!(args.length === 4 || (args.length === 6 && (how === 'minus' || how === 'side'))))
    fail('needs RUN BUDGET STRATEGY FIGURE [minus N | side N]');
  return foundFigure(select(runNamed(runs, named), '*', budget, strategy), name, n, how === 'side');
}

function directive(runs: Runs, text: string): string {
  const [verb, ...args] = text.trim().split(/\s+/);
  const run = runs.main;
  switch (verb) {
    case 'stat': {
      const t = statsOf(runs, args);
      if (t.rows.length !== 1 || t.headers.length !== 2) fail('names one strategy and one figure');
      return shownCells(t)[0]?.[1] ?? '-';
    }
    case 'table':
      return renderTable(statsOf(runs, args), 'md').trimEnd();
    case 'rate': {
      const t = statsOf(runs, args);
      if (t.rows.length !== 1 || t.headers.length !== 2) fail('names one strategy and one figure');
      const [named, budget, strategy, name] = args as [string, string, string, string];
      return rateOf(select(runNamed(runs, named), '*', budget, strategy), name);
    }
    case 'localization':
      if (args.length !== 2) fail('needs RUN BUDGET');
      return localizationTableAt(runNamed(runs, args[0]).rows, args[1] as string);
    case 'localization-by-repository': {
      if (args.length !== 3) fail('needs RUN BUDGET STRATEGY[,STRATEGY...]');
      const [named, budget, names] = args as [string, string, string];
      return localizationTableAt(runNamed(runs, named).rows, budget, names.split(','));
    }
    case 'found':
      return found(runs, args);
    case 'mcnemar':
      if (args.length !== 4) fail('needs RUN BUDGET A B');
      return mcnemarFigure(runNamed(runs, args[0]).rows, ...(args.slice(1) as [string, string, string]));
    case 'generated':
      return GENERATED;
    case 'purpose':
      return run.purposes.get(args[0] ?? '') ?? fail(`no purpose for case ${args[0]} in the manifest`);
    case 'candidate':
      return candidate(run, args);
    case 'outcomes':
      return outcomes(run, args);
    case 'decision':
      return decision(run, args);
    case 'refusal':
      return refusal(run, args);
    default:
      return fail(
        'is not a directive (generated, purpose, candidate, outcomes, decision, refusal, stat, rate, table, localization, localization-by-repository, found, mcnemar)',
      );
  }
}

const GENERATED =
  'Generated by `ctxbench findings` from docs/findings.template.md and a run; edit the template, then `npm run reports`.';

interface Runs {
  readonly main: FindingsRun;
  readonly named: ReadonlyMap<string, FindingsRun>;
}

/**
 * The document: the template with every placeholder filled from the run, or from one of `named`
 * where a placeholder names a run.
 */
export function renderFindings(
  template: string,
  run: FindingsRun,
  named: ReadonlyMap<string, FindingsRun> = new Map(),
): string {
  const runs: Runs = { main: run, named };
  return template.replace(
    /\{\{([^{}]*)\}\}|\{([^{}\n]*)\}/g,
    (whole, text?: string, spec?: string, at = 0) => {
      try {
        if (text !== undefined) return directive(runs, text);
        // A `/` makes it a figure, well formed or not: a mistyped one must not pass as text.
        return spec?.includes('/') ? figureOf(runs, spec) : whole;
      } catch (e) {
        if (!(e instanceof TemplateError)) throw e;
        const line = template.slice(0, at as number).split('\n').length;
        throw new FindingsError(line, `${whole} ${e.message}`);
      }
    },
  );
}
