/**
 * A run folder checked as a whole (`ctxbench validate <run-folder>`): the inputs its manifest
 * names read again and held to their digests, every cell re-derived from its compilation line
 * (rederive.ts) in the order the study writes them, and every report file rendered again from
 * the re-derived rows by the code that writes them, compared to the byte.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { isPlainObject } from '../../compiler/index.js';
import { InputError } from '../errors.js';
import { forEachLine, ledgerDirFor, loadCorpus, loadLedger, readJsonFile, toPolicy } from '../input/index.js';
import { corpusDigest, reportFiles } from '../output/index.js';
import type { Row, StrategyInfo } from '../types.js';
import { checkCell } from './rederive.js';
import { type Cell, cells } from './runner.js';

/** A disagreement: the file of the run folder, its 1-based line (absent for a missing file), what. */
export interface Disagreement {
  readonly file: string;
  readonly line?: number | undefined;
  readonly text: string;
}

export const disagreementText = (d: Disagreement): string =>
  `${d.file}${d.line === undefined ? '' : `:${d.line}`}: ${d.text}`;

/** Every line of a text file, without its newline; a last line without one counts. */
function linesOf(file: string): string[] {
  const lines: string[] = [];
  forEachLine(file, (line) => lines.push(line));
  return lines;
}

/** The manifest's record of an input folder, read again and held to its digest; exit 2 when not. */
function inputDir(manifestFile: string, field: string, dir: unknown, digest: unknown): string {
  if (typeof dir !== 'string')
    throw new InputError(manifestFile, `no ${field}.dir: not a run folder's manifest`);
  const resolved = path.resolve(dir);
  if (!fs.existsSync(resolved) || !fs.statSync(resolved).isDirectory())
    throw new InputError(manifestFile, `${field}.dir ${dir} is gone: the run cannot be re-derived`);
  if (digest !== undefined && corpusDigest(resolved) !== digest)
    throw new InputError(
      manifestFile,
      `${field}.digest: ${dir} has changed since the run (its files' digest differs): the run cannot be re-derived`,
    );
  return resolved;
}

/** The strategies the manifest lists, as the matrix needs them. */
function strategiesOf(manifestFile: string, raw: unknown): StrategyInfo[] {
  if (!Array.isArray(raw)) throw new InputError(manifestFile, 'strategies is not a list');
  return raw.map((s, k) => {
    if (!isPlainObject(s) || typeof s.name !== 'string' || typeof s.readsLedger !== 'boolean')
      throw new InputError(manifestFile, 'not {"name", "readsLedger"}', `strategies[${k}]`);
    return { name: s.name, description: '', readsLedger: s.readsLedger };
  });
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

/** The first line (1-based) where two texts differ. */
function firstLine(a: string, b: string): number {
  const x = a.split('\n');
  const y = b.split('\n');
  let k = 0;
  while (k < x.length && x[k] === y[k]) k++;
  return k + 1;
}

/**
 * Check a finished run folder: the first disagreement of each file, in the folder's file order;
 * empty when it is what its inputs give. Bad or missing inputs throw `InputError` (exit 2).
 */
export async function checkRunFolder(dir: string): Promise<Disagreement[]> {
  if (!fs.existsSync(dir) || !fs.statSync(dir).isDirectory()) throw new InputError(dir, 'no such folder');
  const manifestFile = path.join(dir, 'manifest.json');
  if (!fs.existsSync(manifestFile)) {
    const partial = fs.existsSync(path.join(dir, 'run.json'));
    throw new InputError(
      dir,
      partial
        ? 'a partial run: finish it with `ctxbench study --resume` (which checks the rows it keeps) and validate the finished folder'
        : 'no manifest.json: not a run folder',
    );
  }
  const m = readJsonFile(manifestFile);
  if (!isPlainObject(m) || !isPlainObject(m.corpus))
    throw new InputError(manifestFile, 'no corpus: not a run folder');
  const corpusDir = inputDir(manifestFile, 'corpus', m.corpus.dir, m.corpus.digest);
  const loaded = loadCorpus(corpusDir);
  const corpus = { ...loaded, policy: toPolicy(manifestFile, m.policy) };
  const ledgerDir = isPlainObject(m.ledger)
    ? inputDir(manifestFile, 'ledger', m.ledger.dir, m.ledger.digest)
    : ledgerDirFor(corpus);
  const ledger = loadLedger(ledgerDir, corpus);
  const matrix = cells(corpus, strategiesOf(manifestFile, m.strategies));
  const shard = isPlainObject(m.shard) ? m.shard : null;
  const from = typeof shard?.from === 'number' ? shard.from : 0;
  const to = typeof shard?.to === 'number' ? shard.to : matrix.length;
  const found: Disagreement[] = [];
  const say = (d: Disagreement) => {
    if (!found.some((f) => f.file === d.file)) found.push(d);
  };
  for (const f of ['rows.jsonl', 'compilations.jsonl']) {
    const file = path.join(dir, f);
    if (!fs.existsSync(file)) throw new InputError(file, 'missing: not a run folder');
  }
  const rowLines = linesOf(path.join(dir, 'rows.jsonl'));
  const compLines = linesOf(path.join(dir, 'compilations.jsonl'));
  const rows: Row[] = [];
  const lines: string[] = [];
  const own = rowsByCell(rowLines);
  for (let k = 0; k < Math.max(to - from, rowLines.length, compLines.length); k++) {
    const cell = matrix[from + k];
    if (cell === undefined || from + k >= to) {
      const beyond = `beyond the ${to - from} cells of the corpus and strategies the manifest names`;
      if (k < rowLines.length) say({ file: 'rows.jsonl', line: k + 1, text: `a row ${beyond}` });
      if (k < compLines.length)
        say({ file: 'compilations.jsonl', line: k + 1, text: `a compilation ${beyond}` });
      continue;
    }
    const name = `${cell.kase.name}/${cell.budget}/${cell.strategy.name}`;
    const c = checkCell(cell as Cell<StrategyInfo>, corpus, ledger, rowLines[k], compLines[k], own.get(name));
    if (c.rows !== null) say({ file: 'rows.jsonl', line: k + 1, text: c.rows });
    if (c.compilations !== null) say({ file: 'compilations.jsonl', line: k + 1, text: c.compilations });
    if (c.row !== null && c.line !== null) {
      rows.push(c.row);
      lines.push(JSON.stringify(c.line));
    }
  }
  if (m.rows !== to - from)
    say({ file: 'manifest.json', text: `rows is ${String(m.rows)}, but the run has ${to - from} cells` });
  if (rows.length < to - from) return found;
  for (const [name, text] of Object.entries(
    await renderAgain(rows, m.corpus.name, lines, m.corpus.ingested === true),
  )) {
    const file = path.join(dir, name);
    const was = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : undefined;
    if (was === undefined) say({ file: name, text: 'missing' });
    else if (was !== text)
      say({
        file: name,
        line: firstLine(was, text),
        text: `differs from the one rendered again from the rows${name === 'report.html' ? ' and compilations' : ''}`,
      });
  }
  return found;
}

/** The report files of the re-derived rows; report.html reads compilations from a file. */
async function renderAgain(rows: readonly Row[], name: unknown, lines: readonly string[], ingested: boolean) {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'ctxbench-validate-'));
  try {
    const file = path.join(tmp, 'compilations.jsonl');
    fs.writeFileSync(file, lines.map((l) => `${l}\n`).join(''));
    return await reportFiles(rows, typeof name === 'string' ? name : 'run', file, ingested);
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}
