import path from 'node:path';
import { jsonText, writeFileAtomic } from '../../harness/output/files.js';
import { readRows, runLabel } from '../../harness/output/run-folder.js';
import { surveyLines, surveyMarkdown } from '../../harness/report/survey.js';
import { defineCommand } from '../command.js';
import { EXIT } from '../io.js';

/** Strategies against exact over runs of generated corpora, one per size, with Wilson intervals. */
export const survey = defineCommand({
  examples: [
    ['$0 survey runs/g40 runs/g200 --out reports/survey', 'each strategy against exact, per corpus size'],
  ],
  options: (y) =>
    y
      .positional('runs', {
        type: 'string',
        array: true,
        demandOption: true,
        describe: 'run folders that include exact',
      })
      .option('out', { type: 'string', describe: 'write survey.md and survey.json here instead of printing' })
      .example('$0 survey runs/survey/run-40 runs/survey/run-200 --out reports/survey', ''),
  run: (a, { io }) => {
    const runs = (a.runs as string[]).map((dir) => ({ label: runLabel(dir), rows: readRows(dir) }));
    const markdown = surveyMarkdown(runs);
    if (a.out === undefined) {
      io.out(markdown);
      return EXIT.ok;
    }
    writeFileAtomic(path.join(a.out, 'survey.md'), markdown);
    writeFileAtomic(path.join(a.out, 'survey.json'), jsonText(surveyLines(runs)));
    io.out(`survey.md, survey.json written to ${a.out}\n`);
    return EXIT.ok;
  },
});
