import {
  anythingChanged,
  compareRuns,
  comparisonParts,
  DEFAULT_SEED,
  sideFiles,
  twoSides,
} from '../../harness/compare/index.js';
import { guardOutput, writeFileAtomic } from '../../harness/output/index.js';
import { RUN_FILE } from '../../harness/runfolder/index.js';
import { defineCommand, formatOption, oneOutput, tableOutput } from '../command.js';
import { EXIT } from '../io.js';

/** Compare two run folders compilation by compilation, and each strategy's headline figures. */
export const compare = defineCommand({
  examples: [
    ['$0 compare runs/before runs/after', 'what changed between two runs'],
    ['$0 compare runs/before runs/after --json --fail-on-change', 'as JSON; exit 1 if anything changed'],
    [
      '$0 compare runs/before runs/after --format csv > headline.csv',
      'the headline per strategy alone as CSV (the changes go to stderr)',
    ],
    ['$0 compare runs/mine --strategies topk,compiler', 'two strategies of one run, cell by cell'],
    ['$0 compare runs/a runs/b --table tests --format csv', 'every paired test as CSV'],
    ['$0 compare runs/a runs/b --html both.html', 'also the report page of the two runs side by side'],
  ],
  options: (y) =>
    y
      .positional('a', { type: 'string', demandOption: true, describe: 'run folder A (before)' })
      .positional('b', {
        type: 'string',
        describe: 'run folder B (after); left out with --strategies, which compares two strategies of run A',
      })
      .option('strategies', {
        type: 'string',
        describe: 'a,b: strategy a against strategy b in the one run given, paired by case and budget',
      })
      .option('seed', {
        type: 'string',
        default: DEFAULT_SEED,
        describe: 'seeds the bootstrap intervals: the same runs and seed give the same bytes',
      })
      .option('table', {
        choices: ['headline', 'tests'] as const,
        default: 'headline' as 'headline' | 'tests',
        describe:
          'which table --format csv or json prints: the headline per strategy, or every paired test (text and md print both)',
      })
      .option('json', {
        type: 'boolean',
        default: false,
        describe: 'the whole comparison as one JSON document (--format json prints the headline table alone)',
      })
      .option('format', {
        ...formatOption,
        describe: `${formatOption.describe}; under csv and json each figure is three numbers, "<figure> before", "<figure> after" and "<figure> delta" (docs/compare.md)`,
      })
      .option('html', {
        type: 'string',
        describe: `also write ${RUN_FILE.html}'s page for the two sides, each strategy as '<name> (A)' and '<name> (B)' (with --strategies, the run's page of the two)`,
      })
      .option('fail-on-change', {
        type: 'boolean',
        default: false,
        describe:
          'exit 1 when a compilation changed or is held by one run only (one whose extras or objective alone moved has not changed)',
      }),
  run: async (a, { io }) => {
    oneOutput(a.json, a.format);
    if (a.html !== undefined)
      guardOutput({ path: a.html, kind: 'file', option: '--html', inputs: sideFiles(a.a as string, a.b) });
    const sides = twoSides(a.a as string, a.b, a.strategies);
    const c = compareRuns(...sides.runs, a.seed);
    if (a.html !== undefined) {
      writeFileAtomic(a.html, await sides.page());
      io.err(`compare: the page of both written to ${a.html}\n`);
    }
    if (a.json) io.out(`${JSON.stringify(c, null, 2)}\n`);
    else {
      const out = tableOutput(io, a.format);
      for (const part of comparisonParts(c, a.format, a.table))
        if ('table' in part) out.table(part.table);
        else out.note(part.note);
    }
    return a.failOnChange && anythingChanged(c) ? EXIT.checkFailed : EXIT.ok;
  },
});
