/**
 * The run folder (docs/study.md, "The run folder"): rows.jsonl, compilations.jsonl, rows.csv,
 * summary.json, report.md, report.html and manifest.json. Every file but the manifest is a pure function of
 * the rows, so reruns are byte-identical. `run-writer.ts` writes one as a study goes.
 */

import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { stringify } from 'csv-stringify/sync';
import {
  type CompilerPolicy,
  isPlainObject,
  policyToJSON,
  REQUIREMENT_CLASSES,
} from '../../compiler/index.js';
import { InputError } from '../errors.js';
import { auditTokens, readJsonFile, readJsonLines } from '../input/index.js';
import { count, reportHtml, reportMarkdown } from '../report/index.js';
import {
  type PrefixStability,
  prefixStability,
  ROW_MEASURES,
  ROW_METRICS,
  renderedTexts,
  summary,
} from '../score/index.js';
import type { Corpus, Row, ShardInfo, StrategyInfo } from '../types.js';
import { jsonText as json } from './files.js';
import type { FolderWriter } from './folder.js';

/** Flat columns: lists joined by spaces, extras as JSON, null as an empty cell. */
export function rowsCsv(rows: readonly Row[]): string {
  const flat = rows.map((r) => ({
    case: r.case,
    budget: r.budget,
    budget_tokens: r.budget_tokens,
    strategy: r.strategy,
    success: r.success,
    reason: r.reason,
    admitted: r.admitted.join(' '),
    bundle_hash: r.bundle_hash,
    rendered_tokens: r.rendered_tokens,
    // Every metric of the catalogue, under its name, in its order.
    ...Object.fromEntries(ROW_METRICS.map((m) => [m.name, r[m.name]])),
    extras: JSON.stringify(r.extras),
    expected_success: r.expected.success,
    expected_reason: r.expected.reason,
    legal: r.audit?.legal ?? null,
    missing_required: r.audit?.missing_required.join(' ') ?? null,
    objective_preferred: r.audit?.objective.preferred ?? null,
    objective_discretionary: r.audit?.objective.discretionary ?? null,
    real_tokens_o200k: r.audit?.real_tokens?.o200k ?? null,
    real_tokens_cl100k: r.audit?.real_tokens?.cl100k ?? null,
    // The measures come last, so that every column before them reads as it did before they existed.
    ...Object.fromEntries(ROW_MEASURES.map((m) => [m.name, r.measures?.[m.name] ?? null])),
    frame_tokens: r.measures?.composition.frame ?? null,
    ...Object.fromEntries(
      REQUIREMENT_CLASSES.map((k) => [
        `${k.toLowerCase()}_tokens`,
        r.measures?.composition.classes[k] ?? null,
      ]),
    ),
    role_tokens: r.measures ? JSON.stringify(r.measures.composition.roles) : null,
  }));
  return stringify(flat, { header: true, cast: { boolean: (b) => String(b) } });
}

export const reportTitle = (corpusName: string): string => `Study report: ${corpusName}`;

/**
 * The files derived from the rows, and from `prefix`, each strategy's prefix stability, which
 * compares the rendered texts of compilations.jsonl; without it, those figures are left out.
 */
export function derivedFiles(
  rows: readonly Row[],
  corpusName: string,
  ingested = false,
  prefix?: ReadonlyMap<string, PrefixStability>,
): Record<string, string> {
  const stability = prefix === undefined ? {} : { prefix_stability: Object.fromEntries(prefix) };
  return {
    'rows.csv': rowsCsv(rows),
    'summary.json': json({ ...summary(rows), ...stability }),
    'report.md': reportMarkdown(rows, reportTitle(corpusName), ingested, prefix),
  };
}

/** Each strategy's prefix stability from a run's rows and their rendered texts, counted in o200k. */
export const prefixOf = (
  rows: readonly Row[],
  texts: Iterable<string | null>,
): Promise<Map<string, PrefixStability>> =>
  prefixStability(rows, texts, async (t) => (await auditTokens(t)).o200k);

/**
 * Every report file of a run folder: the files derived from the rows, and report.html, whose grid
 * also shows each compilation from `compilations` (the run's compilations.jsonl), whose rendered
 * texts also give prefix stability. The one place that makes them, for `study`, `merge` and
 * `report` alike.
 */
export async function reportFiles(
  rows: readonly Row[],
  corpusName: string,
  compilations: string,
  ingested = false,
): Promise<Record<string, string>> {
  const prefix = await prefixOf(rows, renderedTexts(rows, compilations));
  return {
    ...derivedFiles(rows, corpusName, ingested, prefix),
    'report.html': await reportHtml(rows, reportTitle(corpusName), compilations, ingested, prefix),
  };
}

/** rows.jsonl and every file derived from it: what a run folder holds besides compilations. */
export async function writeRows(
  folder: FolderWriter,
  rows: readonly Row[],
  corpusName: string,
  ingested = false,
): Promise<void> {
  const out = folder.lines('rows.jsonl');
  for (const r of rows) out.add(JSON.stringify(r));
  out.close();
  await writeDerived(folder, rows, corpusName, ingested);
}

/** The report files, into a folder being written; its compilations.jsonl is already whole. */
export async function writeDerived(
  folder: FolderWriter,
  rows: readonly Row[],
  corpusName: string,
  ingested = false,
): Promise<void> {
  const files = await reportFiles(
    rows,
    corpusName,
    path.join(folder.partial, 'compilations.jsonl'),
    ingested,
  );
  for (const [name, text] of Object.entries(files)) folder.write(name, text);
}

/** SHA-256 over `<file> <sha256>\n` for the corpus folder's files, sorted by name. */
export function corpusDigest(dir: string): string {
  const lines = fs
    .readdirSync(dir)
    .filter((f) => fs.statSync(path.join(dir, f)).isFile())
    .sort()
    .map(
      (f) =>
        `${f} ${createHash('sha256')
          .update(fs.readFileSync(path.join(dir, f)))
          .digest('hex')}\n`,
    );
  return createHash('sha256').update(lines.join('')).digest('hex');
}

export interface ManifestFacts {
  readonly version: string;
  readonly command: readonly string[];
  readonly corpus: Corpus;
  readonly policy: CompilerPolicy;
  readonly strategies: readonly StrategyInfo[];
  readonly shard?: ShardInfo | undefined;
  /** The ledger's folder, named with its digest so that `validate` can re-derive every metric. */
  readonly ledgerDir?: string | undefined;
}

/** The one file allowed to differ between reruns: it records when and with what. */
export const manifestOf = (m: ManifestFacts, rows: number) => ({
  ctxbench: m.version,
  node: process.version,
  created_at: new Date().toISOString(),
  command: [...m.command],
  corpus: {
    name: m.corpus.name,
    dir: m.corpus.dir,
    digest: corpusDigest(m.corpus.dir),
    cases: m.corpus.cases.length,
    ...(m.corpus.ingested ? { ingested: true } : {}),
  },
  ...(m.ledgerDir === undefined
    ? {}
    : { ledger: { dir: path.resolve(m.ledgerDir), digest: corpusDigest(m.ledgerDir) } }),
  policy: policyToJSON(m.policy),
  strategies: m.strategies.map((s) => ({ name: s.name, readsLedger: s.readsLedger === true })),
  rows,
  ...(m.shard ? { shard: m.shard } : {}),
});

/** The files that mark a folder as a run folder, for `--force`. */
export const RUN_MARKS = ['rows.jsonl', 'manifest.json'] as const;

/** Rows back from a run folder. */
export function readRows(dir: string): Row[] {
  const file = path.join(dir, 'rows.jsonl');
  if (!fs.existsSync(file)) throw new InputError(file, 'no rows.jsonl: not a run folder');
  return readJsonLines(file).map(({ line, value }) => {
    const bad = rowProblem(value);
    if (bad !== null) throw new InputError(file, `invalid ${bad}`, `line ${line}`);
    return value as Row;
  });
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

/** The corpus a run folder was made from, as its manifest says (or the folder's own name). */
export function corpusNameOf(dir: string): string {
  const file = path.join(dir, 'manifest.json');
  if (!fs.existsSync(file)) return path.basename(path.resolve(dir));
  const m = readJsonFile(file) as { corpus?: { name?: unknown } } | null;
  return typeof m?.corpus?.name === 'string' ? m.corpus.name : path.basename(path.resolve(dir));
}

/** Whether a run folder's manifest says its corpus was ingested from a repository. */
export function corpusIngested(dir: string): boolean {
  const file = path.join(dir, 'manifest.json');
  if (!fs.existsSync(file)) return false;
  const m = readJsonFile(file) as { corpus?: { ingested?: unknown } } | null;
  return m?.corpus?.ingested === true;
}

/**
 * What a run of a generated corpus was made from, for a survey's headings: `200 candidates`
 * (with the profile when not the default); otherwise the corpus's name.
 */
export function runLabel(dir: string): string {
  const file = path.join(dir, 'manifest.json');
  const m = fs.existsSync(file)
    ? (readJsonFile(file) as { corpus?: { name?: unknown; dir?: unknown } } | null)
    : null;
  const corpusDir = typeof m?.corpus?.dir === 'string' ? m.corpus.dir : null;
  const corpusManifest = corpusDir === null ? null : path.join(corpusDir, 'manifest.json');
  if (corpusManifest !== null && fs.existsSync(corpusManifest)) {
    const g = (
      readJsonFile(corpusManifest) as {
        generator?: { candidates?: unknown; profile?: unknown; tight?: unknown };
      } | null
    )?.generator;
    if (typeof g?.candidates === 'number') {
      const profile = typeof g.profile === 'string' && g.profile !== 'mixed' ? ` (${g.profile})` : '';
      const tight = g.tight === 'at-least-cost' ? ', tight at the least legal cost' : '';
      return `${count(g.candidates, 'candidate')}${profile}${tight}`;
    }
  }
  return corpusNameOf(dir);
}
