import path from 'node:path';
import { corpusNameOf, readRows, reportFiles, writeFileAtomic } from '../../harness/output/index.js';
import { defineCommand } from '../command.js';
import { EXIT } from '../io.js';

/**
 * Regenerate report.md, report.html, summary.json and rows.csv from a run folder's rows (and,
 * for report.html's grid, its compilations), without compiling.
 */
export const report = defineCommand({
  examples: [
    ['$0 report runs/compiler-v1', 'regenerate the reports in place'],
    ['$0 report runs/compiler-v1 --out reports', 'into another folder'],
  ],
  options: (y) =>
    y
      .positional('run', { type: 'string', demandOption: true })
      .option('out', { type: 'string', describe: 'write the reports here instead of the run folder' }),
  run: async (a, { io }) => {
    const run = a.run as string;
    const files = await reportFiles(readRows(run), corpusNameOf(run), path.join(run, 'compilations.jsonl'));
    const out = a.out ?? run;
    for (const [name, text] of Object.entries(files)) writeFileAtomic(path.join(out, name), text);
    io.out(`${Object.keys(files).join(', ')} written to ${out}\n`);
    return EXIT.ok;
  },
});
