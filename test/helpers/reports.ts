/**
 * What the committed reports are made of: the strategies of REPORT_STRATEGIES, whatever else is
 * registered. The drift tests go through these, as `npm run reports` goes through `--strategies`,
 * so a plug-in dropped into strategies/ changes neither.
 */
import fs from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import type { FindingsRun } from '../../src/harness/report/index.js';
import { readRunFolder } from '../../src/harness/runfolder/index.js';
import { derivedFiles, prefixOf } from '../../src/harness/runfolder/rows.js';
import type { CompilationLine, Corpus, Row } from '../../src/harness/types.js';
import { REPORT_STRATEGIES, SWE_BENCH_LITE } from '../../src/harness/vocabulary.js';
import { ROOT } from './corpus.js';
import { tempDir } from './temp.js';

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

let sweRows: readonly Row[] | undefined;

/** The committed rows of reports/swe-bench-lite/ (`npm run swe-bench` makes them), as a run folder reads them; unpacked once. */
export function sweBenchRows(): readonly Row[] {
  if (sweRows === undefined) {
    const dir = tempDir('swe-bench-rows');
    const gz = path.join(ROOT, 'reports', SWE_BENCH_LITE.name, 'rows.jsonl.gz');
    fs.writeFileSync(path.join(dir, 'rows.jsonl'), gunzipSync(fs.readFileSync(gz)));
    sweRows = readRunFolder(dir).rows;
  }
  return sweRows;
}

/** The SWE-bench run as the findings read it: rows alone. */
export const sweBenchRun = (): FindingsRun => ({
  rows: sweBenchRows(),
  compilations: [],
  purposes: new Map(),
  candidates: new Map(),
});
