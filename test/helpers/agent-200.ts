/**
 * The agent-200 run of reports/agent-200/ and docs/findings.md, made as `npm run reports` makes
 * it: the corpus generated from AGENT_REPORT into a folder of that name, then a study of the
 * report strategies. Once per test file (the folder is removed once loaded); generating certifies each budget with exact, so it
 * takes seconds.
 */
import fs from 'node:fs';
import path from 'node:path';
import { defaultPolicy } from '../../src/compiler/index.js';
import { writeCorpus } from '../../src/harness/generate/write-case.js';
import { loadStrategies } from '../../src/harness/hosts/index.js';
import type { CaseLedger, CompilationLine, Corpus, Row } from '../../src/harness/types.js';
import { AGENT_REPORT } from '../../src/harness/vocabulary.js';
import { corpusFolder } from './corpus.js';
import { reportStrategies } from './reports.js';
import { finishedStudy } from './study.js';
import { newDir } from './temp.js';

export interface AgentRun {
  readonly corpus: Corpus;
  readonly rows: readonly Row[];
  readonly compilations: readonly CompilationLine[];
}

let cached: Promise<AgentRun> | undefined;

export const agentRun = (): Promise<AgentRun> => {
  cached ??= (async () => {
    const tmp = newDir('agent-200');
    const dir = path.join(tmp, AGENT_REPORT.name);
    const { seed, cases, candidates, profile } = AGENT_REPORT;
    let corpus: Corpus;
    let ledger: ReadonlyMap<string, CaseLedger>;
    try {
      writeCorpus(dir, { seed, cases, candidates, profile, policy: defaultPolicy() });
      const folder = corpusFolder(dir);
      corpus = folder.corpus;
      ledger = folder.ledger();
    } finally {
      // Loaded whole: nothing reads the folder again.
      fs.rmSync(tmp, { recursive: true, force: true });
    }
    // The folder is gone: the ledger is given, not named.
    const out = await finishedStudy({ corpus, ledger, strategies: reportStrategies(await loadStrategies()) });
    return { corpus, ...out };
  })();
  return cached;
};
