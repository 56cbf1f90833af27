/**
 * A run folder as compare and verify read it: its rows, checked field by field beyond what
 * `readRows` checks and each compilation once, and the corpus and policy its manifest names.
 */
import fs from 'node:fs';
import path from 'node:path';
import { isPlainObject } from '../../compiler/index.js';
import { readJsonFile } from '../corpus/index.js';
import { InputError } from '../errors.js';
import { ROW_MEASURES, ROW_METRICS } from '../metrics/index.js';
import type { Row } from '../types.js';
import { BUDGETS } from '../vocabulary.js';
import { readRows } from './rows.js';

/** The corpus a run was made from, as far as the run folder says. */
export interface CorpusFacts {
  /** As the manifest names it, or the run folder's own name without a manifest. */
  readonly name: string;
  /** The manifest's digest of the corpus folder; null without one. */
  readonly digest: string | null;
  /** The cases the rows hold, sorted. */
  readonly cases: readonly string[];
}

export interface RunFolder {
  readonly dir: string;
  readonly rows: readonly Row[];
  readonly corpus: CorpusFacts;
  /** The manifest's policy as JSON text (written by one function, so comparable); null without one. */
  readonly policy: string | null;
}

/** The metric names, in the rows' order. */
export const METRIC_FIELDS = ROW_METRICS.map((m) => m.name);

export const compilationId = (r: {
  readonly case: string;
  readonly budget: string;
  readonly strategy: string;
}): string => `${r.case}/${r.budget}/${r.strategy}`;

const nullable = (x: unknown, type: 'string' | 'number' | 'boolean') => x === null || typeof x === type;

/**
 * The first field `readRows` leaves unchecked that compare reads and finds malformed, or null:
 * a figure that is not a number would otherwise be summed into a headline as text.
 */
function fieldProblem(r: Row): string | null {
  if (!(BUDGETS as readonly string[]).includes(r.budget)) return 'budget';
  if (typeof r.budget_tokens !== 'number') return 'budget_tokens';
  if (!nullable(r.reason, 'string')) return 'reason';
  if (!nullable(r.bundle_hash, 'string')) return 'bundle_hash';
  if (!nullable(r.expected.reason, 'string')) return 'expected.reason';
  for (const m of ROW_METRICS) if (!nullable(r[m.name], m.type)) return m.name;
  // Absent from runs written before the measures; null for a refusal or an error.
  const measures: unknown = r.measures;
  if (measures !== undefined && measures !== null) {
    if (!isPlainObject(measures)) return 'measures';
    for (const m of ROW_MEASURES) if (!nullable(measures[m.name], 'number')) return `measures.${m.name}`;
    if (!isPlainObject(measures.composition)) return 'measures.composition';
  }
  const a = r.audit;
  if (a === null) return null;
  if (typeof a.legal !== 'boolean') return 'audit.legal';
  if (!Array.isArray(a.missing_required)) return 'audit.missing_required';
  if (!isPlainObject(a.objective)) return 'audit.objective';
  return null;
}

/** A run folder's rows, each checked and each compilation once, and its manifest's corpus and policy. */
export function readRunFolder(dir: string): RunFolder {
  if (!fs.existsSync(dir)) throw new InputError(dir, 'no such folder');
  if (!fs.statSync(dir).isDirectory())
    throw new InputError(dir, 'not a folder: a run folder holds rows.jsonl');
  const rows = readRows(dir);
  const file = path.join(dir, 'rows.jsonl');
  const seen = new Set<string>();
  rows.forEach((r, k) => {
    const bad = fieldProblem(r);
    if (bad !== null) throw new InputError(file, `invalid ${bad}`, `row ${k + 1}`);
    const id = compilationId(r);
    if (seen.has(id)) throw new InputError(file, `${id} appears twice`, `row ${k + 1}`);
    seen.add(id);
  });
  const manifestFile = path.join(dir, 'manifest.json');
  const m = fs.existsSync(manifestFile) ? readJsonFile(manifestFile) : null;
  const corpus = isPlainObject(m) && isPlainObject(m.corpus) ? m.corpus : {};
  return {
    dir,
    rows,
    corpus: {
      name: typeof corpus.name === 'string' ? corpus.name : path.basename(path.resolve(dir)),
      digest: typeof corpus.digest === 'string' ? corpus.digest : null,
      cases: casesOf(rows),
    },
    policy: isPlainObject(m) && m.policy !== undefined ? JSON.stringify(m.policy) : null,
  };
}

export const casesOf = (cells: Iterable<{ readonly case: string }>): string[] =>
  [...new Set([...cells].map((c) => c.case))].sort();

type BudgetCell = { readonly case: string; readonly budget: string; readonly budget_tokens: number };

/** Case, budget and its tokens of every cell, as one sorted text: a corpus's fingerprint in rows. */
const budgetsOf = (cells: Iterable<BudgetCell>): string =>
  [...new Set([...cells].map((c) => `${c.case}/${c.budget}=${c.budget_tokens}`))].sort().join('\n');

/**
 * Whether two runs are of one corpus: by the manifests' digests when both have one; otherwise
 * (rows without a manifest) by the cases, budgets and budget tokens the rows hold, which is all
 * there is to go by.
 */
export function sameCorpus(
  a: { readonly digest: string | null; readonly cells: Iterable<BudgetCell> },
  b: { readonly digest: string | null; readonly cells: Iterable<BudgetCell> },
): boolean {
  if (a.digest !== null && b.digest !== null) return a.digest === b.digest;
  return budgetsOf(a.cells) === budgetsOf(b.cells);
}
