import path from 'node:path';
import { count } from '../../harness/format.js';
import { type SurveyRun, surveyLines } from '../../harness/metrics/index.js';
import { guardOutput, jsonText, progressLine, writeFileAtomic } from '../../harness/output/index.js';
import {
  isDataFormat,
  sectionNote,
  stackTables,
  surveyMarkdown,
  surveySections,
} from '../../harness/report/index.js';
import { readRunFolder, runInputs, runLabel } from '../../harness/runfolder/index.js';
import { defineCommand, formatOption, quietTableOption, tableOutput } from '../command.js';
import { EXIT } from '../io.js';

/** Strategies against exact over runs of generated corpora, one per size, with Wilson intervals. */
export const survey = defineCommand({
  examples: [
    ['$0 survey runs/g40 runs/g200', 'each strategy against exact, a table per corpus size'],
    ['$0 survey runs/g40 runs/g200 --format md', 'the survey as Markdown, as survey.md holds it'],
    [
      '$0 survey runs/g40 runs/g200 --format csv > survey.csv',
      'every table as one CSV, a column naming the run',
    ],
    ['$0 survey runs/g40 runs/g200 --out reports/survey', 'write survey.md and survey.json instead'],
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
      .option('format', {
        ...formatOption,
        describe: `${formatOption.describe}; md is the whole survey.md, csv and json one table with a run column`,
      })
      .option('quiet', quietTableOption),
  run: (a, { io }) => {
    const dirs = a.runs as string[];
    if (a.out !== undefined) {
      const inputs = dirs.flatMap(runInputs);
      for (const name of ['survey.md', 'survey.json'])
        guardOutput({ path: path.join(a.out, name), kind: 'file', option: '--out', inputs });
    }
    // Reading a large run's rows and scoring them take seconds each: the line says which run.
    const progress = progressLine(io, { quiet: a.quiet });
    const runs: SurveyRun[] = dirs.map((dir, k) => {
      progress.update(`survey ${k}/${dirs.length} runs read, reading ${dir}`);
      return { label: runLabel(dir), rows: readRunFolder(dir).rows };
    });
    const lines = surveyLines(runs, (run, k) =>
      progress.update(`survey ${k}/${runs.length} runs scored, scoring ${run.label}`),
    );
    const rows = runs.reduce((n, run) => n + run.rows.length, 0);
    progress.end(`survey: ${count(runs.length, 'run')}, ${count(rows, 'row')}`);
    const sections = surveySections(runs, lines);
    if (a.out !== undefined) {
      writeFileAtomic(path.join(a.out, 'survey.md'), surveyMarkdown(sections));
      writeFileAtomic(path.join(a.out, 'survey.json'), jsonText(lines));
      io.out(`survey.md, survey.json written to ${a.out}\n`);
      return EXIT.ok;
    }
    if (a.format === 'md') {
      io.out(surveyMarkdown(sections));
      return EXIT.ok;
    }
    const out = tableOutput(io, a.format, a.quiet);
    if (isDataFormat(a.format)) {
      for (const s of sections) out.note(`${s.label}: ${sectionNote(s)}\n`);
      out.table(
        stackTables(
          'run',
          sections.map((s) => [s.label, s.table]),
        ),
      );
      return EXIT.ok;
    }
    for (const [k, s] of sections.entries()) {
      out.note(`${k > 0 ? '\n' : ''}${s.label}: ${sectionNote(s)}\n\n`);
      out.table(s.table);
      if (s.certified !== null) {
        out.note('\ncertified answers, as the strategies report them:\n\n');
        out.table(s.certified);
      }
    }
    return EXIT.ok;
  },
});
