/**
 * What the committed reports are made of: the strategies of REPORT_STRATEGIES, whatever else is
 * registered. The drift tests go through these, as `npm run reports` goes through `--strategies`,
 * so a plug-in dropped into strategies/ changes neither.
 */

import type { FindingsRun } from '../../src/harness/report/index.js';
import { derivedFiles, prefixOf } from '../../src/harness/runfolder/rows.js';
import type { CompilationLine, Corpus, Row } from '../../src/harness/types.js';
import { REPORT_STRATEGIES } from '../../src/harness/vocabulary.js';

const inReports = (name: string): boolean => (REPORT_STRATEGIES as readonly string[]).includes(name);

/** Of the registered strategies, the report strategies, in the order given (registry order). */
export const reportStrategies = <S extends { readonly name: string }>(registered: readonly S[]): S[] =>
  registered.filter((s) => inReports(s.name));

/** Of a study's rows, those of the report strategies. */
export const reportRows = (rows: readonly Row[]): Row[] => rows.filter((r) => inReports(r.strategy));

/** A run as `findings` reads it: rows, compilations, and the corpus's purposes and candidates. */
export const asFindingsRun = (
  corpus: Corpus,
  rows: readonly Row[],
  compilations: readonly CompilationLine[] = [],
): FindingsRun => ({
  rows,
  compilations,
  purposes: corpus.purposes,
  candidates: new Map(corpus.cases.map((c) => [c.name, c.candidates])),
});

/**
 * The derived files of a run as `ctxbench report` makes them from its rows and compilations (the
 * compilations give the rendered texts that prefix stability compares), of the report strategies'
 * rows alone.
 */
export async function reportsOf(
  run: { readonly rows: readonly Row[]; readonly compilations: readonly CompilationLine[] },
  corpusName: string,
  ingested = false,
): Promise<Record<string, string>> {
  const kept = run.rows.flatMap((r, k) => (inReports(r.strategy) ? [{ r, c: run.compilations[k] }] : []));
  const rows = kept.map((x) => x.r);
  const texts = kept.map((x) => x.c?.rendered_text ?? null);
  return derivedFiles(rows, corpusName, ingested, await prefixOf(rows, texts));
}
