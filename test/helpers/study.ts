import { ledgerDirFor, loadLedger } from '../../src/harness/corpus/ledger.js';
import { loadStrategies } from '../../src/harness/study/registry.js';
import { runStudy } from '../../src/harness/study/study.js';
import type { CaseLedger, CompilationLine, Corpus, Row, Strategy } from '../../src/harness/types.js';
import { corpus } from './corpus.js';

/** A study of loaded strategies in this thread: its rows and compilations, in loop order. */
export async function threadStudy(
  of: Corpus,
  ledger: ReadonlyMap<string, CaseLedger>,
  strategies: readonly Strategy[],
): Promise<{ rows: Row[]; compilations: CompilationLine[] }> {
  const out = await runStudy({ corpus: of, ledger, where: { in: 'thread', strategies } });
  if (out.state !== 'finished') throw new Error('a study with no signal cannot stop');
  return { rows: [...out.rows], compilations: [...out.compilations] };
}

let cached: Promise<{ rows: Row[]; compilations: CompilationLine[] }> | undefined;

/** The reference study, run once per test file. */
export const referenceStudy = (): Promise<{ rows: Row[]; compilations: CompilationLine[] }> => {
  cached ??= loadStrategies().then((strategies) => threadStudy(corpus(), referenceLedger(), strategies));
  return cached;
};

export const referenceLedger = () => loadLedger(ledgerDirFor(corpus()), corpus());
