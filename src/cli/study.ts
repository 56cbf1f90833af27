import path from 'node:path';
import { loadCorpus } from '../harness/corpus.js';
import { fromRoot } from '../harness/files.js';
import { checkOut } from '../harness/folder.js';
import { ledgerDirFor, loadLedger } from '../harness/ledger.js';
import { pickStrategies } from '../harness/registry.js';
import { reportMarkdown } from '../harness/report.js';
import { RUN_MARKS, RunWriter, reportTitle } from '../harness/runfolder.js';
import { runStudy } from '../harness/runner.js';
import { type Row, STRATEGY_ERROR } from '../harness/types.js';
import { EXIT, type ExitCode, type Io } from './io.js';

export interface StudyArgs {
  readonly corpus: string;
  readonly strategies?: string | undefined;
  readonly policy?: string | undefined;
  readonly out?: string | undefined;
  readonly force: boolean;
  readonly version: string;
  readonly argv: readonly string[];
}

export const splitList = (list: string | undefined): string[] | undefined =>
  list === undefined
    ? undefined
    : list
        .split(',')
        .map((s) => s.trim())
        .filter((s) => s !== '');

/** The headline table of a report, for the terminal. */
const headline = (report: string): string => {
  const start = report.indexOf('## Headline');
  const end = report.indexOf('\n## ', start + 1);
  return report.slice(start, end < 0 ? undefined : end).trimEnd();
};

/**
 * Run the matrix and write the run folder. Everything that can be wrong with the inputs is
 * found before anything is written; a strategy that fails becomes an error row and exit 1.
 */
export async function studyCommand(a: StudyArgs, io: Io): Promise<ExitCode> {
  const corpus = loadCorpus(a.corpus, a.policy);
  const ledger = loadLedger(ledgerDirFor(corpus), corpus);
  const strategies = await pickStrategies(splitList(a.strategies));
  const out = a.out ?? path.join('runs', corpus.name);
  checkOut(out, a.force, RUN_MARKS);
  const facts = { version: a.version, command: a.argv, corpus, policy: corpus.policy, strategies };
  const writer = new RunWriter(out);
  let rows: Row[];
  try {
    rows = runStudy(corpus, ledger, strategies, (line) => writer.compilation(line));
    writer.finish(rows, facts);
  } catch (e) {
    writer.abort();
    throw e;
  }
  io.out(`${rows.length} compilations written to ${out}\n\n`);
  io.out(`${headline(reportMarkdown(rows, reportTitle(corpus.name)))}\n`);
  const failed = rows.filter((r) => r.reason === STRATEGY_ERROR);
  if (failed.length === 0) return EXIT.ok;
  io.err(`ctxbench: ${failed.length} error rows:\n`);
  for (const r of failed) io.err(`  ${r.case}/${r.budget}/${r.strategy}: ${String(r.extras.error)}\n`);
  return EXIT.checkFailed;
}

export const DEFAULT_PUBLISHED = (): string => fromRoot('corpus/compiler-v1/published');
