import path from 'node:path';
import { loadCorpus, requestAt } from '../../src/harness/corpus/folder.js';
import type { BudgetName, Corpus, CorpusCase } from '../../src/harness/types.js';

export const ROOT = path.resolve(import.meta.dirname, '../..');
export const CORPUS_DIR = path.join(ROOT, 'corpus/compiler-v1');
export const GOLDEN_DIR = path.join(ROOT, 'test/fixtures/golden/python-v0.1.0');

let cached: Corpus | undefined;
export const corpus = (): Corpus => {
  cached ??= loadCorpus(CORPUS_DIR);
  return cached;
};

export function caseNamed(name: string): CorpusCase {
  const c = corpus().cases.find((k) => k.name === name);
  if (!c) throw new Error(`no case ${name}`);
  return c;
}

export const at = (name: string, budget: BudgetName | number) => {
  const c = caseNamed(name);
  return { request: requestAt(c, budget), candidates: c.candidates, policy: corpus().policy };
};
