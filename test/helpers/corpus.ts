/**
 * The one corpus loader of the tests: a corpus folder and its ledger, read as a study reads them
 * (through the corpus folder's front door). A shipped corpus is read once per module graph; a
 * folder a test writes is read afresh each time.
 */
import path from 'node:path';
import { ledgerDirFor, loadCorpus, loadLedger, requestAt } from '../../src/harness/corpus/index.js';
import type { BudgetName, CaseLedger, Corpus, CorpusCase } from '../../src/harness/types.js';

export const ROOT = path.resolve(import.meta.dirname, '../..');
export const CORPUS_DIR = path.join(ROOT, 'corpus/compiler-v1');
export const GOLDEN_DIR = path.join(ROOT, 'test/fixtures/golden/python-v0.1.0');

/** A corpus read from its folder, and how to read the ledger it names. */
export interface CorpusFolder {
  readonly dir: string;
  readonly corpus: Corpus;
  /** Its ledger, read anew at each call (a test may keep or change the map it is given). */
  readonly ledger: () => ReadonlyMap<string, CaseLedger>;
  /** Where its ledger lies: what a study keeps from its strategies. */
  readonly ledgerDir: string;
}

/** The ledger a corpus names, read now. */
export const ledgerOf = (corpus: Corpus): ReadonlyMap<string, CaseLedger> =>
  loadLedger(ledgerDirFor(corpus), corpus);

const read = (dir: string): CorpusFolder => {
  const corpus = loadCorpus(dir);
  return { dir, corpus, ledgerDir: ledgerDirFor(corpus), ledger: () => ledgerOf(corpus) };
};

const shipped = new Map<string, CorpusFolder>();

/** A shipped corpus, `corpus/<name>`, read once. */
export function shippedCorpus(name: string): CorpusFolder {
  let found = shipped.get(name);
  if (found === undefined) {
    found = read(path.join(ROOT, 'corpus', name));
    shipped.set(name, found);
  }
  return found;
}

/** A corpus folder a test made (generated, copied, edited), read now. */
export const corpusFolder = (dir: string): CorpusFolder => read(dir);

/** The reference corpus, corpus/compiler-v1. */
export const corpus = (): Corpus => shippedCorpus('compiler-v1').corpus;

/** The reference corpus's ledger, ledger/compiler-v1. */
export const referenceLedger = (): ReadonlyMap<string, CaseLedger> => shippedCorpus('compiler-v1').ledger();

export function caseNamed(name: string): CorpusCase {
  const c = corpus().cases.find((k) => k.name === name);
  if (!c) throw new Error(`no case ${name}`);
  return c;
}

export const at = (name: string, budget: BudgetName | number) => {
  const c = caseNamed(name);
  return { request: requestAt(c, budget), candidates: c.candidates, policy: corpus().policy };
};
