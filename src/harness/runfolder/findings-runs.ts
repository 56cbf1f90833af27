/**
 * The run folders a findings document is filled from (report/findings-page.ts fills it): each
 * run's rows, compilations and manifest as the reader gives them, with the purposes and
 * candidates of the corpus it compiled, read from the folder its manifest names.
 */
import fs from 'node:fs';
import path from 'node:path';
import { loadCorpus, readTextFile } from '../corpus/index.js';
import { InputError } from '../errors.js';
import { FindingsError, type FindingsRun, renderFindings } from '../report/index.js';
import type { CompilationLine } from '../types.js';
import { corpusDigest } from './digest.js';
import { RUN_FILE } from './files.js';
import { compilationsOf, type RunFolder, readRunFolder } from './read-run.js';
import { folderTexts } from './run-texts.js';

export interface FindingsInputs {
  /** The template's file. */
  readonly template: string;
  /** The run folders; the first fills the placeholders that name no run. */
  readonly runs: readonly string[];
  /** The corpus folder of the one run given, instead of the one its manifest names. */
  readonly corpus?: string | undefined;
  /** Says a line that does not stop the document (a corpus changed since its run). */
  readonly warn: (line: string) => void;
}

/** The corpus folder and digest the run's manifest records (not needed when `given` names one). */
function runCorpus(run: RunFolder, given: string | undefined): { dir: string; digest: string | undefined } {
  if (run.manifest !== null) return { dir: run.manifest.corpus.dir, digest: run.manifest.corpus.digest };
  if (given !== undefined) return { dir: given, digest: undefined };
  throw new InputError(
    path.join(run.dir, RUN_FILE.manifest),
    'the run names no corpus folder: pass --corpus',
  );
}

/**
 * A run folder's rows and compilations, with the purposes and candidates of the corpus it
 * compiled. Each is read when a placeholder asks, not before: a SWE-bench run's compilations take
 * gigabytes, and its corpus as much again, while a page may read the rows alone (a folder of rows
 * needs no corpus until a placeholder reads one).
 */
function findingsRun(dir: string, given: string | undefined, warn: (line: string) => void): FindingsRun {
  const run = readRunFolder(dir);
  let lines: CompilationLine[] | undefined;
  let corpus: { purposes: ReadonlyMap<string, string>; candidates: FindingsRun['candidates'] } | undefined;
  const loaded = () => {
    if (corpus === undefined) {
      const recorded = runCorpus(run, given);
      const corpusDir = given ?? recorded.dir;
      if (!fs.existsSync(corpusDir))
        throw new InputError(corpusDir, "the run's corpus folder is not found from here: pass --corpus");
      // The manifest's folder is anyone's: one that is not a folder, or whose digest cannot be
      // taken (a FIFO, a device, a file gone while read), stops with the manifest's field named.
      const manifest = path.join(run.dir, RUN_FILE.manifest);
      const named = given === undefined ? { file: manifest, field: 'corpus.dir' } : undefined;
      if (named !== undefined && !fs.statSync(corpusDir).isDirectory())
        throw new InputError(manifest, `corpus.dir ${corpusDir} is not a folder`);
      // Purposes and candidates are read from the folder as it is now, which the run may predate.
      if (recorded.digest !== undefined && corpusDigest(corpusDir, named) !== recorded.digest)
        warn(`${corpusDir} has changed since the run; its purposes and candidates may not match`);
      const c = loadCorpus(corpusDir);
      const byName = new Map(c.cases.map((k) => [k.name, k]));
      corpus = { purposes: c.purposes, candidates: { get: (kase) => byName.get(kase)?.candidates } };
    }
    return corpus;
  };
  return {
    rows: run.rows,
    get compilations() {
      lines ??= compilationsOf(run, folderTexts(run.dir, run.manifest, given));
      return lines;
    },
    get purposes() {
      return loaded().purposes;
    },
    get candidates() {
      return loaded().candidates;
    },
  };
}

/**
 * The findings document: the template with every placeholder filled, runs named by their folder.
 * A missing template, two runs of one name and a placeholder no run fills stop with exit 2.
 */
export function findingsDocument(inputs: FindingsInputs): string {
  const { template } = inputs;
  if (!fs.existsSync(template)) throw new InputError(template, 'template not found');
  const named = new Map<string, FindingsRun>();
  for (const dir of inputs.runs) {
    const name = path.basename(path.resolve(dir));
    if (named.has(name))
      throw new InputError(dir, `a second run folder named "${name}": runs are named by their folder`);
    named.set(name, findingsRun(dir, inputs.corpus, inputs.warn));
  }
  try {
    // A template is anybody's file: a FIFO or a link to /dev/zero is refused, not read for ever.
    return renderFindings(readTextFile(template), named.values().next().value as FindingsRun, named);
  } catch (e) {
    if (!(e instanceof FindingsError)) throw e;
    throw new InputError(template, e.where);
  }
}
