import { verifyRows } from '../../harness/checks/verify.js';
import { readRows } from '../../harness/output/run-folder.js';
import { DEFAULTS, defineCommand } from '../command.js';
import { EXIT } from '../io.js';

/** The run's rows of the six published strategies against run-001, row by row. */
export const verify = defineCommand({
  name: 'verify <run>',
  describe: "compare a run's rows of the six published strategies with the published run",
  options: (y) =>
    y.positional('run', { type: 'string', demandOption: true, describe: 'run folder' }).option('published', {
      type: 'string',
      default: DEFAULTS.published(),
      describe: 'published run folder',
    }),
  run: (a, { io }) => {
    const run = a.run as string;
    const differences = verifyRows(readRows(run), a.published);
    for (const d of differences) io.out(`${d}\n`);
    if (differences.length === 0) {
      io.out(`verify: every published row reproduced (${run} against ${a.published})\n`);
      return EXIT.ok;
    }
    io.out(`verify: ${differences.length} differences from the published run\n`);
    return EXIT.checkFailed;
  },
});
