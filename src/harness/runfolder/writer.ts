/**
 * A run folder written as the run goes, so that a run that is stopped or killed can be finished:
 * rows and compilations stream into `<out>.partial` one finished cell at a time, in loop order,
 * beside `run.json`, what the run is. `study --resume` keeps the finished cells whose row and
 * compilation both made it to disk whole and that the study vets as its own, and the finished
 * folder is the same, byte for byte, as that of a run never stopped.
 */
import fs from 'node:fs';
import path from 'node:path';
import { forEachLine, isThere, readJsonFile } from '../corpus/index.js';
import { InputError, UsageError } from '../errors.js';
import { FolderWriter, jsonText as json, type LineFile, openOwnFile } from '../output/index.js';
import type { CompilationLine, Row } from '../types.js';
import { RUN_FILE, RUN_IDENTITY } from './files.js';
import { type ManifestFacts, manifestOf } from './manifest.js';
import { writeDerived } from './rows.js';
import { corpusTexts } from './run-texts.js';

/** Everything a resumed run must share with the run it continues; `run.json` holds it. */
export type RunIdentity = Readonly<Record<string, unknown>>;

/** The text of a finished cell of a stopped run: its row's line and its compilation's. */
export interface KeptCell {
  readonly row: string;
  readonly line: string;
}

/**
 * The finished cells of a stopped run, vetted: the rows the study writes for the first of them
 * (all, or fewer when a cell must be asked again, and with it every cell after it), or the
 * 0-based cell whose line disagrees, its file and how. The study re-derives them from their
 * compilations and asks error rows' strategies again; this folder cannot (it lies below both).
 */
export type Vet = (kept: readonly KeptCell[]) => Promise<
  | { readonly rows: Row[] }
  | {
      readonly k: number;
      readonly file: typeof RUN_FILE.rows | typeof RUN_FILE.compilations;
      readonly text: string;
    }
>;

export class RunWriter {
  private readonly folder: FolderWriter;
  private readonly rowsFile: LineFile;
  private readonly compilations: LineFile;
  /** The rows of the run so far, the kept ones of a resumed run first. */
  readonly rows: Row[];

  /** The writer of `out`; resuming, it holds the stopped run's finished cells that `vet` keeps. */
  static async open(out: string, identity: RunIdentity, vet: Vet, resume: boolean): Promise<RunWriter> {
    const folder = new FolderWriter(out, resume);
    try {
      return new RunWriter(
        folder,
        identity,
        resume ? await keptRows(folder.partial, out, identity, vet) : [],
      );
    } catch (e) {
      // Refused: the partial folder stays as the stopped run left it, for a look or a fresh start.
      folder.release();
      throw e;
    }
  }

  private constructor(folder: FolderWriter, identity: RunIdentity, rows: Row[]) {
    this.folder = folder;
    this.rows = rows;
    if (this.rows.length === 0) this.folder.write(RUN_IDENTITY, json(identity));
    this.rowsFile = this.folder.lines(RUN_FILE.rows, this.rows.length > 0);
    this.compilations = this.folder.lines(RUN_FILE.compilations, this.rows.length > 0);
  }

  /** One finished cell, on disk at once: a kill loses at most the cells still running. */
  take(row: Row, line: CompilationLine): void {
    this.rows.push(row);
    this.compilations.add(JSON.stringify(line));
    this.compilations.flush();
    this.rowsFile.add(JSON.stringify(row));
    this.rowsFile.flush();
  }

  /** Writes the report files and the manifest, then moves the folder into place. */
  async finish(facts: ManifestFacts): Promise<void> {
    this.close();
    fs.rmSync(path.join(this.folder.partial, RUN_IDENTITY));
    const { corpus } = facts;
    await writeDerived(this.folder, this.rows, {
      name: corpus.name,
      ingested: corpus.ingested,
      texts: corpus.ingested ? corpusTexts(corpus) : null,
      dir: corpus.dir,
    });
    this.folder.write(RUN_FILE.manifest, json(manifestOf(facts, this.rows.length)));
    this.folder.commit();
  }

  /** Stop, keeping what is written for `--resume`. */
  stop(): void {
    this.close();
    this.folder.release();
  }

  abort(): void {
    this.close();
    this.folder.abort();
  }

  private close(): void {
    this.rowsFile.close();
    this.compilations.close();
  }
}

/**
 * The finished cells of a stopped run, both files cut back to those kept. A cell counts when its
 * row and its compilation are whole lines; all are vetted first, and one that is not what the
 * study writes stops the resume before anything is cut: a kill tears only a last line, so a
 * whole line that disagrees was written by someone else.
 */
async function keptRows(partial: string, out: string, identity: RunIdentity, vet: Vet): Promise<Row[]> {
  const idFile = path.join(partial, RUN_IDENTITY);
  if (!isThere(idFile)) return [];
  // A leftover folder is anybody's: its run.json a FIFO, a link to /dev/zero or not JSON is refused in one line.
  const was = readJsonFile(idFile) as RunIdentity;
  for (const key of Object.keys(identity)) {
    if (JSON.stringify(was[key]) !== JSON.stringify(identity[key]))
      throw new UsageError(`cannot resume ${out}: it was started with another ${key}; run without --resume`);
  }
  const rowLines = wholeLines(path.join(partial, RUN_FILE.rows));
  const compLines = wholeLines(path.join(partial, RUN_FILE.compilations));
  const whole = Math.min(rowLines.length, compLines.length);
  const v = await vet(
    rowLines.slice(0, whole).map((r, k) => ({ row: r.text, line: (compLines[k] as WholeLine).text })),
  );
  if ('file' in v)
    throw new InputError(
      `${path.join(partial, v.file)}:${v.k + 1}`,
      `${v.text}; cannot resume ${out} (run without --resume to start again)`,
    );
  const { rows } = v;
  const n = rows.length;
  truncateOwn(path.join(partial, RUN_FILE.rows), rowLines[n - 1]?.end ?? 0);
  truncateOwn(path.join(partial, RUN_FILE.compilations), compLines[n - 1]?.end ?? 0);
  return rows;
}

/** Cut a file of the partial folder back; a link there is refused, never followed to what it names. */
function truncateOwn(file: string, size: number): void {
  const fd = openOwnFile(file, 'keep');
  try {
    fs.ftruncateSync(fd, size);
  } finally {
    fs.closeSync(fd);
  }
}

interface WholeLine {
  readonly text: string;
  /** The byte offset after its newline. */
  readonly end: number;
}

/** The whole lines of a file; a last line without its newline was cut by the kill. */
function wholeLines(file: string): WholeLine[] {
  const lines: WholeLine[] = [];
  if (!isThere(file)) return lines;
  const size = fs.statSync(file).size;
  let offset = 0;
  forEachLine(file, (text) => {
    offset += Buffer.byteLength(text) + 1;
    if (offset <= size) lines.push({ text, end: offset });
  });
  return lines;
}
