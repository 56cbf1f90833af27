import { readRows } from '../harness/runfolder.js';
import { verifyRows } from '../harness/verify.js';
import { EXIT, type ExitCode, type Io } from './io.js';

export interface VerifyArgs {
  readonly run: string;
  readonly published: string;
}

/** The run's rows of the six published strategies against run-001, row by row. */
export function verifyCommand(a: VerifyArgs, io: Io): ExitCode {
  const rows = readRows(a.run);
  const differences = verifyRows(rows, a.published);
  for (const d of differences) io.out(`${d}\n`);
  if (differences.length === 0) {
    io.out(`verify: every published row reproduced (${a.run} against ${a.published})\n`);
    return EXIT.ok;
  }
  io.out(`verify: ${differences.length} differences from the published run\n`);
  return EXIT.checkFailed;
}
