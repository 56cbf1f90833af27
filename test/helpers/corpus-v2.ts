/** The corpus-v2 study, run once per test file, and the lookups its tests share. */

import { loadStrategies } from '../../src/harness/hosts/index.js';
import type { FindingsRun } from '../../src/harness/report/index.js';
import type { CompilationLine, Row } from '../../src/harness/types.js';
import { BUDGETS } from '../../src/harness/vocabulary.js';
import { shippedCorpus } from './corpus.js';
import { asFindingsRun, reportStrategies } from './reports.js';
import { finishedStudy } from './study.js';

export const { dir: DIR, corpus } = shippedCorpus('compiler-v2');
export const compilations: CompilationLine[] = [];
/**
 * The report strategies' run: reports/compiler-v2/ and docs/findings.md are made of it, and the
 * tests of this corpus speak of those strategies, not of a plug-in someone added.
 */
export const study = loadStrategies().then(async (registered) => {
  const out = await finishedStudy({ corpus, strategies: reportStrategies(registered) });
  compilations.push(...out.compilations);
  return out.rows;
});

export const row = async (kase: string, budget: string, strategy: string): Promise<Row> => {
  const r = (await study).find((x) => x.case === kase && x.budget === budget && x.strategy === strategy);
  if (!r) throw new Error(`no row ${kase}/${budget}/${strategy}`);
  return r;
};
export const each = async (kase: string, strategy: string): Promise<Row[]> =>
  Promise.all(BUDGETS.map((b) => row(kase, b, strategy)));
export const findingsRun = (rows: readonly Row[]): FindingsRun => asFindingsRun(corpus, rows, compilations);
export const pool = (name: string) => corpus.cases.find((c) => c.name === name)!.candidates;
export const cand = (kase: string, id: string) => pool(kase).find((c) => c.candidate_id === id)!;
export const entryOf = async (kase: string, budget: string, strategy: string, id: string) => {
  await study;
  const line = compilations.find((c) => c.case === kase && c.budget === budget && c.strategy === strategy);
  if (!line) throw new Error(`no compilation ${kase}/${budget}/${strategy}`);
  const { trace, failure } = line.result as {
    trace: { entries: Record<string, unknown>[] };
    failure: Record<string, unknown> | null;
  };
  return { entry: trace.entries.find((e) => e.candidate_id === id), failure };
};
export const sum = (rows: readonly Row[], f: (r: Row) => number | null) =>
  rows.reduce((s, r) => s + (f(r) ?? 0), 0);
