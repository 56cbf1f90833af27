/**
 * A run folder written as the run goes, so that a run that is stopped or killed can be finished:
 * rows and compilations stream into `<out>.partial` one finished cell at a time, in loop order,
 * beside `run.json`, what the run is. `study --resume` keeps the finished cells whose row and
 * compilation both made it to disk whole, and the finished folder is the same, byte for byte,
 * as that of a run never stopped.
 */
import fs from 'node:fs';
import path from 'node:path';
import { UsageError } from '../errors.js';
import { forEachLine } from '../input/index.js';
import type { CompilationLine, Row } from '../types.js';
import { jsonText as json } from './files.js';
import { FolderWriter, type LineFile } from './folder.js';
import { type ManifestFacts, manifestOf, writeDerived } from './run-folder.js';

/** Everything a resumed run must share with the run it continues; `run.json` holds it. */
export type RunIdentity = Readonly<Record<string, unknown>>;

/** Which cell the k-th row of the run must be. */
export type CellAt = (k: number) => {
  readonly case: string;
  readonly budget: string;
  readonly strategy: string;
};

const IDENTITY = 'run.json';

export class RunWriter {
  private readonly folder: FolderWriter;
  private readonly rowsFile: LineFile;
  private readonly compilations: LineFile;
  /** The rows of the run so far, the kept ones of a resumed run first. */
  readonly rows: Row[];

  constructor(out: string, identity: RunIdentity, cellAt: CellAt, resume: boolean) {
    this.folder = new FolderWriter(out, resume);
    this.rows = resume ? keptRows(this.folder.partial, out, identity, cellAt) : [];
    if (this.rows.length === 0) this.folder.write(IDENTITY, json(identity));
    this.rowsFile = this.folder.lines('rows.jsonl', this.rows.length > 0);
    this.compilations = this.folder.lines('compilations.jsonl', this.rows.length > 0);
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
    fs.rmSync(path.join(this.folder.partial, IDENTITY));
    await writeDerived(this.folder, this.rows, facts.corpus.name);
    this.folder.write('manifest.json', json(manifestOf(facts, this.rows.length)));
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
 * The finished cells of a stopped run, both files cut back to them. A cell counts when its row
 * and its compilation are whole lines and the row is the cell the loop order puts there.
 */
function keptRows(partial: string, out: string, identity: RunIdentity, cellAt: CellAt): Row[] {
  const idFile = path.join(partial, IDENTITY);
  if (!fs.existsSync(idFile)) return [];
  const was = JSON.parse(fs.readFileSync(idFile, 'utf8')) as RunIdentity;
  for (const key of Object.keys(identity)) {
    if (JSON.stringify(was[key]) !== JSON.stringify(identity[key]))
      throw new UsageError(`cannot resume ${out}: it was started with another ${key}; run without --resume`);
  }
  const rows: Row[] = [];
  const rowEnds = wholeLines(path.join(partial, 'rows.jsonl'), (line, k) => {
    const row = JSON.parse(line) as Row;
    const cell = cellAt(k);
    if (row.case !== cell.case || row.budget !== cell.budget || row.strategy !== cell.strategy) return false;
    rows.push(row);
    return true;
  });
  const lineEnds = wholeLines(path.join(partial, 'compilations.jsonl'), (line, k) => {
    const cell = cellAt(k);
    return k < rows.length && line.startsWith(JSON.stringify(cell).slice(0, -1));
  });
  const n = Math.min(rowEnds.length, lineEnds.length);
  fs.truncateSync(path.join(partial, 'rows.jsonl'), rowEnds[n - 1] ?? 0);
  fs.truncateSync(path.join(partial, 'compilations.jsonl'), lineEnds[n - 1] ?? 0);
  return rows.slice(0, n);
}

/**
 * The byte offset after each whole line of a file that `accept` takes, stopping at the first it
 * does not or that does not parse; a last line without its newline was cut by the kill.
 */
function wholeLines(file: string, accept: (line: string, k: number) => boolean): number[] {
  const ends: number[] = [];
  if (!fs.existsSync(file)) return ends;
  const size = fs.statSync(file).size;
  let offset = 0;
  let going = true;
  forEachLine(file, (line) => {
    if (!going) return;
    offset += Buffer.byteLength(line) + 1;
    try {
      going = offset <= size && accept(line, ends.length);
    } catch {
      going = false;
    }
    if (going) ends.push(offset);
  });
  return ends;
}
