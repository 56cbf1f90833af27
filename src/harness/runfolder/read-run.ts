/**
 * The one reader of a run folder: its rows, each checked field by field and each compilation
 * once; its manifest, read as the one type a run writes (manifest.ts); and where its
 * compilations lie. `compare`, `verify`, `report`, `findings`, `merge` and `survey` read a run
 * through it; `validate` reads the same files as lines (run-lines.ts), to name each line that
 * disagrees rather than stop at the first.
 */
import fs from 'node:fs';
import path from 'node:path';
import { isPlainObject } from '../../compiler/index.js';
import { isThere, readJsonLines } from '../corpus/index.js';
import { InputError } from '../errors.js';
import { ROW_MEASURES, ROW_METRICS } from '../metrics/index.js';
import type { CompilationLine, Row } from '../types.js';
import { BUDGETS } from '../vocabulary.js';
import { type RunTexts, readBack } from './by-reference.js';
import { RUN_FILE } from './files.js';
import { manifestIn, type RunManifest } from './manifest.js';

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
  /** The manifest as a run writes it; null for a folder of rows without one. */
  readonly manifest: RunManifest | null;
  readonly corpus: CorpusFacts;
  /** The manifest's policy as JSON text (written by one function, so comparable); null without one. */
  readonly policy: string | null;
  /** The path of its compilations.jsonl, which a folder of rows alone may lack. */
  readonly compilations: string;
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
 * The first field `rowProblem` leaves unchecked that compare reads and finds malformed, or null:
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
    // A measure added later is absent from the runs written before it.
    for (const m of ROW_MEASURES)
      if (measures[m.name] !== undefined && !nullable(measures[m.name], 'number'))
        return `measures.${m.name}`;
    if (!isPlainObject(measures.composition)) return 'measures.composition';
  }
  const a = r.audit;
  if (a === null) return null;
  if (typeof a.legal !== 'boolean') return 'audit.legal';
  if (!Array.isArray(a.missing_required)) return 'audit.missing_required';
  if (!isPlainObject(a.objective)) return 'audit.objective';
  return null;
}

/** The first field of a row that is not what a run folder writes, or null. */
function rowProblem(row: unknown): string | null {
  if (!isPlainObject(row)) return 'row (not an object)';
  for (const key of ['case', 'budget', 'strategy'] as const) if (typeof row[key] !== 'string') return key;
  if (typeof row.success !== 'boolean') return 'success';
  if (typeof row.rendered_tokens !== 'number') return 'rendered_tokens';
  if (!Array.isArray(row.admitted) || !row.admitted.every((x) => typeof x === 'string')) return 'admitted';
  if (!isPlainObject(row.expected) || typeof row.expected.success !== 'boolean') return 'expected';
  if (!isPlainObject(row.extras)) return 'extras';
  if (row.audit !== null && !isPlainObject(row.audit)) return 'audit';
  return null;
}

/** A run folder's rows, each checked field by field and each compilation once. */
function readRows(dir: string): Row[] {
  const file = path.join(dir, RUN_FILE.rows);
  if (!isThere(file)) throw new InputError(file, `no ${RUN_FILE.rows}: not a run folder`);
  const seen = new Set<string>();
  const rows = readJsonLines(file).map(({ line, value }) => {
    const bad = rowProblem(value);
    if (bad !== null) throw new InputError(file, `invalid ${bad}`, `line ${line}`);
    return value as Row;
  });
  // Then the fields compare and verify read, and each compilation once, by row.
  rows.forEach((r, k) => {
    const bad = fieldProblem(r);
    if (bad !== null) throw new InputError(file, `invalid ${bad}`, `row ${k + 1}`);
    const id = compilationId(r);
    if (seen.has(id)) throw new InputError(file, `${id} appears twice`, `row ${k + 1}`);
    seen.add(id);
  });
  return rows;
}

/** A run folder: its rows, each checked and each compilation once; its manifest, typed; where its compilations lie. */
export function readRunFolder(dir: string): RunFolder {
  if (!fs.existsSync(dir)) throw new InputError(dir, 'no such folder');
  if (!fs.statSync(dir).isDirectory())
    throw new InputError(dir, `not a folder: a run folder holds ${RUN_FILE.rows}`);
  const rows = readRows(dir);
  const manifest = manifestIn(dir);
  return {
    dir,
    rows,
    manifest,
    corpus: {
      name: manifest?.corpus.name ?? path.basename(path.resolve(dir)),
      digest: manifest?.corpus.digest ?? null,
      cases: casesOf(rows),
    },
    policy: manifest === null || manifest.policy === undefined ? null : JSON.stringify(manifest.policy),
    compilations: path.join(dir, RUN_FILE.compilations),
  };
}

/**
 * A run's compilations, one a line, as the study compiled them (a line holding its texts by
 * reference read back against `texts`); none without the file.
 */
export const compilationsOf = (run: RunFolder, texts: RunTexts | null = null): CompilationLine[] =>
  isThere(run.compilations)
    ? readJsonLines(run.compilations).map(
        ({ line, value }) => readBack(run.compilations, line, value, texts) as CompilationLine,
      )
    : [];

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
