/**
 * A run folder's rows and the files made of them (files.ts names them all; manifest.ts writes
 * the manifest). Every file but the manifest is a pure function of the rows, so reruns are
 * byte-identical. `writer.ts` writes a run folder as a study goes.
 */

import path from 'node:path';
import { stringify } from 'csv-stringify/sync';
import { isPlainObject, REQUIREMENT_CLASSES } from '../../compiler/index.js';
import { countTokensBeside, isThere, linesOf } from '../corpus/index.js';
import { ingestedLabel } from '../ingest/index.js';
import {
  type PrefixStability,
  PrefixTally,
  prefixStability,
  ROW_MEASURES,
  ROW_METRICS,
  renderedText,
  summary,
} from '../metrics/index.js';
import type { FolderWriter } from '../output/index.js';
import { jsonText as json } from '../output/index.js';
import { GridReader, reportHtml, reportMarkdown } from '../report/index.js';
import type { Row } from '../types.js';
import type { RunTexts } from './by-reference.js';
import { RUN_FILE } from './files.js';
import type { RunFolder } from './read-run.js';
import { compiledLines, folderTexts } from './run-texts.js';

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
    [RUN_FILE.csv]: rowsCsv(rows),
    [RUN_FILE.summary]: json({ ...summary(rows), ...stability }),
    [RUN_FILE.markdown]: reportMarkdown(rows, reportTitle(corpusName), ingested, prefix),
  };
}

// Prefix stability counts in o200k alone: the audit's other vocabulary would count each prefix for nothing.
const inO200k = (text: string): Promise<number> => countTokensBeside('o200k', text);

/** Each strategy's prefix stability from a run's rows and their rendered texts, counted in o200k. */
export const prefixOf = (
  rows: readonly Row[],
  texts: Iterable<string | null>,
): Promise<Map<string, PrefixStability>> => prefixStability(rows, texts, inO200k);

/** The corpus a run's report files name and read: its name, whether ingested, its texts, its folder. */
export interface ReportCorpus {
  readonly name: string;
  readonly ingested?: boolean | undefined;
  /** Where an ingested run's compilations, written by reference, are read back. */
  readonly texts?: RunTexts | null | undefined;
  /** The corpus folder, when it is there: report.html names an ingested corpus from its manifest. */
  readonly dir?: string | undefined;
}

/**
 * Every report file of a run folder: the files derived from the rows, and report.html, whose grid
 * also shows each compilation from `compilations` (the run's compilations.jsonl), whose rendered
 * texts also give prefix stability. The one place that makes them, for `study`, `merge` and
 * `report` alike. The lines of an ingested corpus are read back against its texts where they hold
 * their texts by reference. compilations.jsonl is read once: each line, parsed, goes to the grid
 * and its rendered text to the prefix tally (a gigabyte for 140 SWE-bench instances).
 */
export async function reportFiles(
  rows: readonly Row[],
  compilations: string,
  corpus: ReportCorpus,
): Promise<Record<string, string>> {
  const ingested = corpus.ingested === true;
  const lines = ingested
    ? compiledLines(compilations, corpus.texts ?? null)
    : isThere(compilations)
      ? linesOf(compilations)
      : [];
  const tally = new PrefixTally(rows, inO200k);
  const grid = new GridReader(rows, ingested);
  let k = 0;
  for (const line of lines) {
    const r = rows[k++];
    if (r === undefined) break;
    let taken: string | Record<string, unknown> = line;
    if (typeof line === 'string')
      try {
        const parsed: unknown = JSON.parse(line);
        if (isPlainObject(parsed)) taken = parsed;
      } catch {
        // The grid says the line is not JSON.
      }
    tally.add(r, r.success ? renderedText(taken, r) : null);
    grid.add(taken);
    await tally.settle(IN_FLIGHT);
  }
  const prefix = await tally.result();
  // The page names an ingested corpus as its user knows it (its source and size) where its folder
  // still says; report.md keeps the folder's name, which its rows alone give again.
  const named = ingested && corpus.dir !== undefined ? ingestedLabel(corpus.dir) : null;
  return {
    ...derivedFiles(rows, corpus.name, ingested, prefix),
    [RUN_FILE.html]: await reportHtml(rows, reportTitle(named ?? corpus.name), grid, ingested, prefix),
  };
}

/** Prefix counts the read may run ahead of: enough to keep the counting thread busy. */
const IN_FLIGHT = 64;

/**
 * The report files of a run folder as read, for `report`: as its run wrote them, were its rows the
 * same. An ingested run's texts are read from its corpus, the manifest's or `corpusDir`.
 */
export const runReportFiles = (
  run: RunFolder,
  corpusDir?: string | undefined,
): Promise<Record<string, string>> =>
  reportFiles(run.rows, run.compilations, {
    name: run.corpus.name,
    ingested: run.manifest?.corpus.ingested === true,
    texts: folderTexts(run.dir, run.manifest, corpusDir),
    dir: corpusDir ?? run.manifest?.corpus.dir,
  });

/** rows.jsonl and every file derived from it: what a run folder holds besides compilations. */
export async function writeRows(
  folder: FolderWriter,
  rows: readonly Row[],
  corpus: ReportCorpus,
): Promise<void> {
  const out = folder.lines(RUN_FILE.rows);
  for (const r of rows) out.add(JSON.stringify(r));
  out.close();
  await writeDerived(folder, rows, corpus);
}

/** The report files, into a folder being written; its compilations.jsonl is already whole. */
export async function writeDerived(
  folder: FolderWriter,
  rows: readonly Row[],
  corpus: ReportCorpus,
): Promise<void> {
  const files = await reportFiles(rows, path.join(folder.partial, RUN_FILE.compilations), corpus);
  for (const [name, text] of Object.entries(files)) folder.write(name, text);
}
