/**
 * docs/findings.md from a template and a run: every figure in the document is a placeholder the
 * run fills, so the text cannot drift from the results (a test renders it again and compares).
 *
 * Placeholders, each on the run's rows (and, for decisions, its compilations):
 * - `{CASE/BUDGET/STRATEGY.metric}`: one row's figure; `*` in any of the three sums over them
 *   (a boolean counts its true rows). Metrics: any numeric or boolean field of a row, `admitted`,
 *   and `outcome`, `refused`, `compilations` (1 a row), `violations` (the six kinds summed).
 * - `{{generated}}`: the line saying the document is generated.
 * - `{{purpose CASE}}`: what the case is for, from the corpus manifest.
 * - `{{outcomes CASE metric,...}}`: a table of every strategy at every budget.
 * - `{{decision CASE BUDGET STRATEGY CANDIDATE}}`: that candidate's trace entry.
 * A placeholder naming nothing in the run is an error, never an empty string.
 */
import type { CompilationLine, Row } from '../types.js';
import { BUDGETS, VIOLATION_KINDS } from '../vocabulary.js';
import { figure, int } from './format.js';
import { markdownTable } from './table.js';

export interface FindingsRun {
  readonly rows: readonly Row[];
  readonly compilations: readonly CompilationLine[];
  /** Case name to what the case is for (the manifest's `purpose`). */
  readonly purposes: ReadonlyMap<string, string>;
}

type Value = number | boolean | string | null;

const violations = (r: Row): number =>
  VIOLATION_KINDS.reduce(
    (sum, kind) => sum + ((r[`${kind}_violations` as keyof Row] as number | null) ?? 0),
    0,
  );

/** A metric of one row, or undefined when the row has no such field. */
function metric(r: Row, name: string): Value | undefined {
  if (name === 'outcome') return outcome(r);
  if (name === 'refused') return !r.success;
  if (name === 'compilations') return 1;
  if (name === 'violations') return violations(r);
  if (name === 'admitted') return r.admitted.join(', ');
  const v = (r as unknown as Record<string, unknown>)[name];
  return typeof v === 'number' || typeof v === 'boolean' || v === null ? v : undefined;
}

const outcome = (r: Row): string =>
  r.success ? `bundle of ${int(r.rendered_tokens)}` : `refused ${r.reason}`;

// Scores (recall, precision) are fractions; every other number a metric yields is a count.
const FRACTIONS = new Set(['must_recall', 'should_recall', 'precision']);

function show(name: string, v: Value): string {
  if (v === null) return '-';
  if (typeof v === 'boolean') return v ? 'yes' : 'no';
  if (typeof v === 'string') return v;
  return FRACTIONS.has(name) ? figure(v, 'score') : int(v);
}

/** The rows a placeholder names; an empty selection is an error in the template. */
function select(run: FindingsRun, kase: string, budget: string, strategy: string, where: string): Row[] {
  const rows = run.rows.filter(
    (r) =>
      (kase === '*' || r.case === kase) &&
      (budget === '*' || r.budget === budget) &&
      (strategy === '*' || r.strategy === strategy),
  );
  if (rows.length === 0) throw new Error(`findings: ${where} names no compilation of the run`);
  return rows;
}

function figureOf(run: FindingsRun, spec: string): string {
  const m = /^([\w*-]+)\/([\w*-]+)\/([\w*-]+)\.(\w+)$/.exec(spec);
  if (!m) throw new Error(`findings: {${spec}} is not CASE/BUDGET/STRATEGY.metric`);
  const [, kase, budget, strategy, name] = m as unknown as [string, string, string, string, string];
  const rows = select(run, kase, budget, strategy, `{${spec}}`);
  const values = rows.map((r) => metric(r, name));
  if (values.some((v) => v === undefined)) throw new Error(`findings: {${spec}}: no metric ${name}`);
  if (rows.length === 1) return show(name, values[0] as Value);
  if (values.some((v) => typeof v === 'string'))
    throw new Error(`findings: {${spec}}: ${name} cannot be summed over several rows`);
  return show(
    name,
    values.reduce<number>((sum, v) => sum + (v === true ? 1 : typeof v === 'number' ? v : 0), 0),
  );
}

/** A metric's name in a table cell: `must` for must_recall, `authority` for authority_violations. */
const label = (name: string): string => name.replace(/_(recall|violations|admission)$/, '');

function outcomes(run: FindingsRun, kase: string, names: readonly string[]): string {
  const rows = select(run, kase, '*', '*', `{{outcomes ${kase}}}`);
  const strategies = [...new Set(rows.map((r) => r.strategy))];
  const cell = (r: Row | undefined): string => {
    if (!r) return '-';
    const parts = [outcome(r)];
    for (const name of names) {
      const v = metric(r, name);
      if (v === undefined) throw new Error(`findings: {{outcomes ${kase}}}: no metric ${name}`);
      if (r.success) parts.push(`${label(name)} ${show(name, v)}`);
    }
    return parts.join(', ');
  };
  const body = strategies.map((s) => [
    s,
    ...BUDGETS.map((b) => cell(rows.find((r) => r.strategy === s && r.budget === b))),
  ]);
  const budgets = BUDGETS.map((b) => `${b} (${int(rows.find((r) => r.budget === b)?.budget_tokens ?? 0)})`);
  const key =
    names.length > 0 ? `\n\nBeside each bundle's rendered tokens: ${names.map(label).join(', ')}.` : '';
  return `${markdownTable(['strategy', ...budgets], body).trimEnd()}${key}`;
}

interface Entry {
  readonly candidate_id: string;
  readonly decision: string;
  readonly reason_code: string;
  readonly reason_detail: string;
  readonly dependency_closure?: readonly string[];
}

function decision(run: FindingsRun, args: readonly string[]): string {
  const [kase, budget, strategy, id] = args;
  const line = run.compilations.find(
    (c) => c.case === kase && c.budget === budget && c.strategy === strategy,
  );
  const trace = (line?.result as { trace?: { entries?: readonly Entry[] } } | undefined)?.trace;
  const entry = trace?.entries?.find((e) => e.candidate_id === id);
  if (!entry) throw new Error(`findings: {{decision ${args.join(' ')}}} names no trace entry of the run`);
  const deps = entry.dependency_closure ?? [];
  const named = deps.length > 0 ? `; its dependencies: ${deps.map((d) => `\`${d}\``).join(', ')}` : '';
  return `\`${entry.candidate_id}\`: ${entry.decision} (${entry.reason_code}, "${entry.reason_detail}")${named}`;
}

function directive(run: FindingsRun, text: string): string {
  const [verb, ...args] = text.trim().split(/\s+/);
  if (verb === 'generated' && args.length === 0) return GENERATED;
  if (verb === 'purpose' && args.length === 1) {
    const purpose = run.purposes.get(args[0] as string);
    if (purpose === undefined) throw new Error(`findings: no purpose for case ${args[0]} in the manifest`);
    return purpose;
  }
  if (verb === 'outcomes' && args.length >= 1)
    return outcomes(run, args[0] as string, args[1] ? args[1].split(',') : []);
  if (verb === 'decision' && args.length === 4) return decision(run, args);
  throw new Error(`findings: unknown directive {{${text}}}`);
}

const GENERATED =
  'Generated by `ctxbench findings` from docs/findings.template.md and a run; edit the template, then `npm run reports`.';

/** The document: the template with every placeholder filled from the run. */
export function renderFindings(template: string, run: FindingsRun): string {
  return template
    .replace(/\{\{([^{}]+)\}\}/g, (_, text: string) => directive(run, text))
    .replace(/\{([^{}\s]+)\}/g, (_, spec: string) => figureOf(run, spec));
}
