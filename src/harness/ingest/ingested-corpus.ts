/**
 * What an ingested corpus is made of besides its pools: how `--force` recognises it, its
 * policy, a case's task and name, the sorted counts its manifest records, and what it is called.
 */
import path from 'node:path';
import { type CompilerPolicy, defaultPolicy } from '../../compiler/index.js';
import { CORPUS_MANIFEST, readJsonFile } from '../corpus/index.js';
import { count } from '../format.js';
import { manifestHas } from '../output/index.js';
import type { Tokenizer } from '../types.js';
import type { Commit } from './ingest-types.js';
import { RELEVANCE_MODEL } from './relevance/relevance-model.js';

/** A corpus ingest wrote (its manifest has an `ingest` block): one `ingest --force` may replace. */
export const ingestedCorpus = (dir: string): boolean => manifestHas(dir, 'ingest', 1 << 26);

/**
 * The ingested corpus's policy: the default, with the rendering overhead in real tokens (o200k
 * unless named) and the relevance model's floor. A relevance here is the model's chance that the
 * task needs the file, times the share of its text a form carries, so the compiler's objective is
 * the expected recall of the needed files' text. The floor (relevance-model.json) is a tenth of
 * the chance of a file drawn at random from the development split: a form earning less has no real
 * chance of being needed; one earning more is worth room that would stay empty. The reference
 * policy's 0.3 is a threshold on hand-set scores, meaningless for a chance.
 */
export const ingestPolicy = (tokenizer: Tokenizer = 'o200k'): CompilerPolicy => ({
  ...defaultPolicy(),
  min_discretionary_relevance: RELEVANCE_MODEL.floor,
  overhead_tokenizer: tokenizer,
});

/**
 * The most characters a task may have: a SWE-bench problem statement, the message of a commit made
 * a case, pack's task. A task is whole in every bundle, and a million characters is about a
 * quarter of a million tokens of prose: five times the largest budget ingest gives a case unless
 * told (50,000), forty times SWE-bench Lite's longest problem statement (24,770 characters). A
 * longer one is no task a model is given, and counting it alone took minutes (issue 47).
 */
export const TASK_LIMIT = 1_000_000;

/** The task: the commit's subject, and its body when it has one. */
export const taskText = (c: Commit): string =>
  c.body.trim() === '' ? c.subject : `${c.subject}\n\n${c.body.trim()}`;

/** The case's name: its place in the history and the commit's short id, so names sort in history order. */
export const caseName = (index: number, c: Commit, width: number): string =>
  `c${String(index).padStart(width, '0')}-${c.sha.slice(0, 10)}`;

/** An object with its keys sorted: a manifest's counts in the same order on every run. */
export const sortedKeys = <T>(o: Readonly<Record<string, T>>): Record<string, T> =>
  Object.fromEntries(Object.entries(o).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));

/**
 * What an ingested corpus is, as its user knows it, from its manifest's `ingest` block: "SWE-bench
 * (lite.jsonl): 140 instances of 9 repositories", "ctxbench: 24 commits up to 3ea1317f4a11". Null
 * for a folder that is gone, unreadable, or not an ingested corpus: the caller names it otherwise.
 */
export function ingestedLabel(dir: string): string | null {
  let m: unknown;
  try {
    // Read as every corpus reader reads it: bounded, a FIFO or device refused.
    m = readJsonFile(path.join(dir, CORPUS_MANIFEST));
  } catch {
    return null;
  }
  const o = m as { fixtures?: unknown; ingest?: Record<string, unknown> } | null;
  const ingest = o?.ingest;
  const cases = Array.isArray(o?.fixtures) ? o.fixtures.length : null;
  if (ingest === undefined || cases === null) return null;
  if (ingest.source === 'swe-bench' && typeof ingest.instances_file === 'string') {
    const repos = Object.values((ingest.repositories ?? {}) as Record<string, { cases?: number }>).filter(
      (r) => (r.cases ?? 0) > 0,
    ).length;
    return `SWE-bench (${ingest.instances_file}): ${count(cases, 'instance')} of ${count(repos, 'repository')}`;
  }
  if (typeof ingest.repository === 'string' && typeof ingest.head === 'string')
    return `${ingest.repository}: ${count(cases, 'commit')} up to ${ingest.head.slice(0, 12)}`;
  return null;
}
