import path from 'node:path';
import { strategiesOf } from '../../harness/metrics/index.js';
import { guardOutput, writeFileAtomic } from '../../harness/output/index.js';
import { verdictText } from '../../harness/report/index.js';
import { readRunFolder, runInputs, runReportFiles } from '../../harness/runfolder/index.js';
import { defineCommand } from '../command.js';
import { EXIT } from '../io.js';

/**
 * Regenerate report.md, report.html, summary.json and rows.csv from a run folder's rows (and,
 * for report.html's grid, its compilations), without compiling. For an ingested corpus, the
 * verdict is printed first: which strategy holds the needed files whole, at what cost.
 */
export const report = defineCommand({
  examples: [
    ['$0 report runs/compiler-v1', 'regenerate the reports in place'],
    ['$0 report runs/compiler-v1 --out reports', 'into another folder'],
  ],
  options: (y) =>
    y
      .positional('run', { type: 'string', demandOption: true })
      .option('out', { type: 'string', describe: 'write the reports here instead of the run folder' })
      .option('corpus', {
        type: 'string',
        describe: "an ingested run's corpus folder, where the manifest's has moved (held to its digest)",
      }),
  run: async (a, { io }) => {
    const run = a.run as string;
    const folder = readRunFolder(run);
    const files = await runReportFiles(folder, a.corpus);
    const out = a.out ?? run;
    const inputs = runInputs(run);
    // Every file is checked before the first is written: a refusal leaves the reports as they were.
    for (const name of Object.keys(files))
      guardOutput({ path: path.join(out, name), kind: 'file', option: '--out', inputs });
    for (const [name, text] of Object.entries(files)) writeFileAtomic(path.join(out, name), text);
    if (folder.manifest?.corpus.ingested === true)
      io.out(`${verdictText(folder.rows, strategiesOf(folder.rows))}\n`);
    io.out(`${Object.keys(files).join(', ')} written to ${out}\n`);
    return EXIT.ok;
  },
});
