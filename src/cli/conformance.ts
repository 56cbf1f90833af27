import { runConformance } from '../harness/conformance.js';
import { loadCorpus } from '../harness/corpus.js';
import { jsonText } from '../harness/files.js';
import { EXIT, type ExitCode, type Io } from './io.js';

export interface ConformanceArgs {
  readonly json: boolean;
  readonly corpus: string;
  readonly golden: string;
}

/** The 42 golden compilations of the Python reference, recompiled and compared. */
export function conformanceCommand(a: ConformanceArgs, io: Io): ExitCode {
  const report = runConformance(loadCorpus(a.corpus), a.golden);
  if (a.json) {
    io.out(jsonText(report));
  } else {
    const lines = [
      'Context Compiler conformance (golden parity with the Python reference, v2 traces projected to v1)',
      '',
      `cases: ${report.cases}`,
      `matching: ${report.cases - report.mismatches}`,
      `mismatches: ${report.mismatches}`,
      '',
      report.cases === 0 ? 'FAIL (no golden cases found)' : report.mismatches === 0 ? 'PASS' : 'FAIL',
      ...report.details.flatMap((d) => d.differences.map((x) => `${d.case}: ${x}`)),
    ];
    io.out(`${lines.join('\n')}\n`);
  }
  return report.mismatches === 0 && report.cases > 0 ? EXIT.ok : EXIT.checkFailed;
}
