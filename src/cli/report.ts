import path from 'node:path';
import { writeFileAtomic } from '../harness/files.js';
import { corpusNameOf, derivedFiles, readRows } from '../harness/runfolder.js';
import { EXIT, type ExitCode, type Io } from './io.js';

export interface ReportArgs {
  readonly run: string;
  readonly out?: string | undefined;
}

/** Regenerate report.md, summary.json and rows.csv from a run folder's rows, without compiling. */
export function reportCommand(a: ReportArgs, io: Io): ExitCode {
  const files = derivedFiles(readRows(a.run), corpusNameOf(a.run));
  const out = a.out ?? a.run;
  for (const [name, text] of Object.entries(files)) writeFileAtomic(path.join(out, name), text);
  io.out(`${Object.keys(files).join(', ')} written to ${out}\n`);
  return EXIT.ok;
}
