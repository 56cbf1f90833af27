/**
 * A run folder checked as a whole (`ctxbench validate <run-folder>`): the inputs its manifest
 * names read again and held to their digests, every cell re-derived from its compilation line
 * (remeasure.ts) in the order the study writes them, every error row's strategy asked its cell
 * again (recheck.ts), the manifest re-derived (validate-manifest.ts), no file a run does not write,
 * and every report file rendered again from the re-derived rows by the code that writes them,
 * compared to the byte.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { isThere, ledgerDirFor, loadCorpus, loadLedger, readBytes, toPolicy } from '../corpus/index.js';
import { InputError } from '../errors.js';
import { listStrategies, registryOrder } from '../hosts/index.js';
import {
  corpusDigest,
  corpusTexts,
  finishedManifest,
  RUN_FILE,
  type RunManifest,
  reportFiles,
  runLines,
  strayFiles,
} from '../runfolder/index.js';
import { sliceOf } from '../shard.js';
import type { Corpus, Row, ShardInfo, Strategy, StrategyRef } from '../types.js';
import { BUDGETS } from '../vocabulary.js';
import { answering, type Where } from './answering.js';
import { cells } from './matrix.js';
import { type ErrorClaim, recheckErrors } from './recheck.js';
import { checkCell } from './remeasure.js';
import { firstLine, manifestDisagreement } from './validate-manifest.js';

/** A disagreement: the file of the run folder, its 1-based line (absent for a whole file), what. */
export interface Disagreement {
  readonly file: string;
  readonly line?: number | undefined;
  readonly text: string;
}

const disagreementText = (d: Disagreement): string =>
  `${d.file}${d.line === undefined ? '' : `:${d.line}`}: ${d.text}`;

/** What `validate` makes of a run folder. */
export interface RunCheck {
  /** The first disagreement of each file, in the folder's file order; empty when it is what its inputs give. */
  readonly found: readonly Disagreement[];
  /** Every error row no rerun can confirm or refute (a timeout, memory): neither valid nor refuted. */
  readonly unchecked: readonly Disagreement[];
}

/** `valid`, or the first disagreement of each file and every unchecked error row, one line each. */
export const runCheckText = ({ found, unchecked }: RunCheck): string =>
  found.length === 0 && unchecked.length === 0
    ? 'valid\n'
    : [
        ...found.map((d) => `INVALID ${disagreementText(d)}\n`),
        ...unchecked.map((d) => `UNCHECKED ${disagreementText(d)}\n`),
      ].join('');

/**
 * How the run's strategies are asked again: the registry's files in processes of their own, as
 * the study ran them (with the manifest's `timeout` and `memory`, these when it records none), or
 * strategies already loaded, for a run made in this thread.
 */
export type Asking =
  | {
      readonly in: 'processes';
      readonly timeout: number;
      readonly memory?: number | undefined;
      /** The strategy files to find the manifest's names among; the registry's by default. */
      readonly strategies?: readonly StrategyRef[] | undefined;
    }
  | { readonly in: 'thread'; readonly strategies: readonly Strategy[] };

/**
 * The manifest's record of an input folder, read again and held to its digest; exit 2 when not.
 * The folder is digested even when the manifest records no digest (a run made without naming its
 * ledger): the digest is what refuses a FIFO, a device or a link to one before a reader opens it.
 */
function inputDir(manifestFile: string, field: string, dir: string, digest: string | undefined): string {
  const resolved = path.resolve(dir);
  const why = 'the run cannot be re-derived';
  if (!fs.existsSync(resolved)) throw new InputError(manifestFile, `${field}.dir ${dir} is gone: ${why}`);
  if (!fs.statSync(resolved).isDirectory())
    throw new InputError(manifestFile, `${field}.dir ${dir} is not a folder: ${why}`);
  const now = corpusDigest(resolved, { file: manifestFile, field: `${field}.dir`, why });
  if (digest !== undefined && now !== digest)
    throw new InputError(
      manifestFile,
      `${field}.digest: ${field}.dir ${dir} has changed since the run (its files' digest differs): ${why}`,
    );
  return resolved;
}

/**
 * Where the manifest's strategies answer, in the order a study runs them (the registry's for
 * processes, the order given for a thread), each once. A name no strategy has here stops with
 * exit 2: without the strategy, its run cannot be re-derived.
 */
function whereOf(manifestFile: string, m: RunManifest, asking: Asking): Where {
  const names = new Set(m.strategies.map((s) => s.name));
  const known: readonly { readonly name: string }[] =
    asking.in === 'thread' ? asking.strategies : (asking.strategies ?? listStrategies());
  const k = m.strategies.findIndex((s) => !known.some((x) => x.name === s.name));
  if (k >= 0)
    throw new InputError(
      manifestFile,
      `no strategy "${m.strategies[k]?.name}" here (strategies/): the run cannot be re-derived`,
      `strategies[${k}]`,
    );
  if (asking.in === 'thread')
    return { in: 'thread', strategies: asking.strategies.filter((s) => names.has(s.name)) };
  return {
    in: 'processes',
    strategies: (asking.strategies ?? listStrategies())
      .filter((s) => names.has(s.name))
      .sort((a, b) => registryOrder(a.name, b.name)),
    timeout: m.timeout ?? asking.timeout,
    memory: m.memory ?? asking.memory,
  };
}

/** The slice a shard's index and count give of a matrix of `total` cells; exit 2 for no shard of it. */
function shardOf(manifestFile: string, m: RunManifest, total: number): ShardInfo | undefined {
  if (m.shard === undefined) return undefined;
  const { index, count } = m.shard;
  if (count < 1 || index < 1 || index > count)
    throw new InputError(manifestFile, `shard ${index}/${count} is no shard`, 'shard');
  return sliceOf({ index, count }, total);
}

/** Each cell's stored row by its name (its first), wherever it stands. */
function rowsByCell(rowLines: readonly string[]): Map<string, string> {
  const own = new Map<string, string>();
  for (const text of rowLines) {
    try {
      const r = JSON.parse(text) as { case?: unknown; budget?: unknown; strategy?: unknown };
      const name = `${String(r.case)}/${String(r.budget)}/${String(r.strategy)}`;
      if (!own.has(name)) own.set(name, text);
    } catch {
      // Not JSON: named where it stands.
    }
  }
  return own;
}

/**
 * Check a finished run folder. Bad or missing inputs, and a strategy the manifest names that is
 * not here, throw `InputError` (exit 2).
 */
export async function checkRunFolder(dir: string, asking: Asking): Promise<RunCheck> {
  const { file: manifestFile, text: manifestText, m } = finishedManifest(dir);
  const corpusDir = inputDir(manifestFile, 'corpus', m.corpus.dir, m.corpus.digest);
  const corpus = { ...loadCorpus(corpusDir), policy: toPolicy(manifestFile, m.policy) };
  // The corpus's own ledger, whatever folder the manifest names: it scores the run again.
  const ledgerDir = inputDir(manifestFile, 'ledger', ledgerDirFor(corpus), m.ledger?.digest);
  const ledger = loadLedger(ledgerDir, corpus);
  const rowLines = runLines(dir, RUN_FILE.rows);
  const compLines = runLines(dir, RUN_FILE.compilations);
  const where = whereOf(manifestFile, m, asking);
  // The matrix's size (runner.ts's `cells`), known before any strategy process starts.
  const total = corpus.cases.length * BUDGETS.length * where.strategies.length;
  const shard = shardOf(manifestFile, m, total);
  const [from, to] = shard === undefined ? [0, total] : [shard.from, shard.to];
  const open = await answering(where, { keep: where.strategies.length + 1, secrets: [ledgerDir] });
  const found: Disagreement[] = [];
  // The first disagreement of each file: the one of the lowest line, at the file's first place.
  const say = (d: Disagreement) => {
    const k = found.findIndex((f) => f.file === d.file);
    if (k < 0) found.push(d);
    else if (d.line !== undefined && (found[k]?.line ?? 0) > d.line) found[k] = d;
  };
  const unchecked: Disagreement[] = [];
  const rows: Row[] = [];
  const lines: string[] = [];
  try {
    const matrix = cells(corpus, open.strategies);
    const own = rowsByCell(rowLines);
    const claims: (ErrorClaim & { readonly line: number })[] = [];
    for (let k = 0; k < Math.max(to - from, rowLines.length, compLines.length); k++) {
      const cell = matrix[from + k];
      if (cell === undefined || from + k >= to) {
        const beyond = `beyond the ${to - from} cells of the corpus and strategies the manifest names`;
        if (k < rowLines.length) say({ file: RUN_FILE.rows, line: k + 1, text: `a row ${beyond}` });
        if (k < compLines.length)
          say({ file: RUN_FILE.compilations, line: k + 1, text: `a compilation ${beyond}` });
        continue;
      }
      const name = `${cell.kase.name}/${cell.budget}/${cell.strategy.name}`;
      const c = await checkCell(cell, corpus, ledger, rowLines[k], compLines[k], own.get(name));
      if (c.rows !== null) say({ file: RUN_FILE.rows, line: k + 1, text: c.rows });
      if (c.compilations !== null) say({ file: RUN_FILE.compilations, line: k + 1, text: c.compilations });
      if (c.error !== null) claims.push({ cell, message: c.error, line: k + 1 });
      if (c.row !== null && c.line !== null) {
        rows.push(c.row);
        lines.push(JSON.stringify(c.line));
      }
    }
    for (const [j, v] of (await recheckErrors(claims, corpus, ledger, open.ask)).entries()) {
      const at = { file: RUN_FILE.rows, line: claims[j]?.line };
      if (v?.unchecked === true) unchecked.push({ ...at, text: v.text });
      else if (v !== null && v !== undefined) say({ ...at, text: v.text });
    }
  } finally {
    open.close();
  }
  const derived = { corpus, strategies: open.strategies, shard, ledgerDir, rows: to - from };
  const manifest = manifestDisagreement(manifestText, m, derived);
  if (manifest !== null) say({ file: RUN_FILE.manifest, ...manifest });
  for (const name of strayFiles(dir))
    say({ file: name, text: 'is no file a run writes (a run folder holds only what its run wrote)' });
  if (rows.length === to - from) await compareReports(dir, rows, lines, corpus, say);
  return { found, unchecked };
}

/** Each report file against the one rendered again from the re-derived rows and compilations. */
async function compareReports(
  dir: string,
  rows: readonly Row[],
  lines: readonly string[],
  corpus: Corpus,
  say: (d: Disagreement) => void,
): Promise<void> {
  const files = await renderAgain(rows, corpus, lines);
  for (const [name, text] of Object.entries(files)) {
    const file = path.join(dir, name);
    // Bounded and only a regular file: a FIFO or a link to /dev/zero in the folder is refused in one
    // line (exit 2), not waited on or read for ever. Bad bytes still only make the file differ.
    const was = isThere(file) ? readBytes(file).toString('utf8') : undefined;
    if (was === undefined) say({ file: name, text: 'missing' });
    else if (was !== text)
      say({
        file: name,
        line: firstLine(was, text),
        text: `differs from the one rendered again from the rows${name === RUN_FILE.html ? ' and compilations' : ''}`,
      });
  }
}

/** The report files of the re-derived rows; report.html reads compilations from a file. */
async function renderAgain(rows: readonly Row[], corpus: Corpus, lines: readonly string[]) {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'ctxbench-validate-'));
  try {
    const file = path.join(tmp, RUN_FILE.compilations);
    fs.writeFileSync(file, lines.map((l) => `${l}\n`).join(''));
    const ingested = corpus.ingested === true;
    return await reportFiles(rows, file, {
      name: corpus.name,
      ingested,
      texts: ingested ? corpusTexts(corpus) : null,
      dir: corpus.dir,
    });
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}
