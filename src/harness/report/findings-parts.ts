/**
 * Directives of findings.ts that read one thing: a candidate's field, and a rate with its
 * interval. Apart so that the template's reader stays one concern.
 */
import { type ContextCandidate, dependencyClosure } from '../../compiler/index.js';
import { figure, int } from '../format.js';
import { FIGURES, rateOf as figureRate, strategyStats } from '../metrics/index.js';
import type { CompilationLine, Row } from '../types.js';

export interface FindingsRun {
  readonly rows: readonly Row[];
  /** The run's compilations.jsonl, for decisions and refusals (empty when the run has none). */
  readonly compilations: readonly CompilationLine[];
  /** Case name to what the case is for (the manifest's `purpose`). */
  readonly purposes: ReadonlyMap<string, string>;
  /** Case name to its candidates, for `{{candidate}}`: asked case by case (a large corpus holds a few at a time). */
  readonly candidates: Pick<ReadonlyMap<string, readonly ContextCandidate[]>, 'get'>;
}

/** A placeholder the run cannot fill; findings.ts adds the template line. */
export class TemplateError extends Error {}

export const fail = (text: string): never => {
  throw new TemplateError(text);
};

/** The candidate and everything it depends on, each once: what it costs into an empty bundle. */
function closureCost(pool: readonly ContextCandidate[], id: string): number {
  const byId = new Map(pool.map((c) => [c.candidate_id, c]));
  // An id missing from the pool costs nothing, as it is in the compiler's own walk.
  return dependencyClosure(id, byId).reduce((sum, x) => sum + (byId.get(x)?.token_count ?? 0), 0);
}

export function candidate(run: FindingsRun, args: readonly string[]): string {
  if (args.length !== 3) fail('needs CASE CANDIDATE FIELD');
  const [kase, id, field] = args as [string, string, string];
  const pool = run.candidates.get(kase) ?? fail(`no case ${kase} in the corpus`);
  const c = pool.find((x) => x.candidate_id === id) ?? fail(`no candidate ${id} in ${kase}`);
  if (field === 'cost') return int(closureCost(pool, id));
  const v = (c as unknown as Record<string, unknown>)[field];
  if (typeof v === 'number') return field === 'relevance' ? String(v) : int(v);
  return typeof v === 'string' || typeof v === 'boolean' ? String(v) : fail(`no field ${field}`);
}

const catalogue = new Map(FIGURES.map((f) => [f.name, f]));

/**
 * A catalogue count of compilations as a rate with its 95% Wilson interval: `5 of 40 (95%
 * interval 0.0543 to 0.2604)`. It counts among what the figure says (the catalogue's one
 * definition, which report.html's intervals read too): the bundles for a figure of bundles (over
 * budget, illegal), every compilation otherwise.
 */
export function rateOf(rows: readonly Row[], name: string): string {
  const f = catalogue.get(name) ?? fail(`no figure "${name}" in the metric catalogue`);
  const w = figureRate(f, strategyStats(rows)) ?? fail(`${name} is not a count of compilations among others`);
  return `${int(w.count)} of ${int(w.of)} (95% interval ${figure(w.low, 'score')} to ${figure(w.high, 'score')})`;
}

/** The repository of a SWE-bench instance, named `owner__name-number`; null for any other case. */
export const repositoryOf = (kase: string): string | null =>
  /^([\w.-]+__[\w.-]+)-\d+$/.exec(kase)?.[1] ?? null;

/**
 * A run's cases of one repository (`swe-bench-lite@sympy__sympy`: its instances named
 * `sympy__sympy-<number>`). The rest reads through, not spread: spreading would read a SWE-bench
 * run's gigabytes of compilations and its corpus, which the getters read only when asked.
 */
export function repositoryView(run: FindingsRun, repository: string): FindingsRun {
  const rows = run.rows.filter((r) => repositoryOf(r.case) === repository);
  if (rows.length === 0) fail(`names no repository "${repository}" of the run's cases`);
  return {
    rows,
    get compilations() {
      return run.compilations;
    },
    get purposes() {
      return run.purposes;
    },
    get candidates() {
      return run.candidates;
    },
  };
}
