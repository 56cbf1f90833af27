import { runConformance } from '../../harness/audit/index.js';
import { loadCorpus } from '../../harness/corpus/index.js';
import { jsonText } from '../../harness/output/index.js';
import { corpusOption, DEFAULTS, defineCommand } from '../command.js';
import { EXIT } from '../io.js';

/** The 42 golden compilations of the Python reference, recompiled and compared. */
export const conformance = defineCommand({
  examples: [
    ['$0 conformance', 'recompile the 42 golden cases'],
    ['$0 conformance --json', 'the same as JSON'],
  ],
  options: (y) =>
    y
      .option('json', {
        type: 'boolean',
        default: false,
        describe: 'print {"cases", "mismatches", "details"}',
      })
      .option('corpus', corpusOption)
      .option('golden', {
        type: 'string',
        default: DEFAULTS.golden(),
        defaultDescription: 'test/fixtures/golden/python-v0.1.0, the 42 frozen outputs',
        describe: 'folder of golden compilations of the Python reference',
      }),
  run: (a, { io }) => {
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
  },
});
