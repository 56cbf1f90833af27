import { jsonText } from '../../harness/output/files.js';
import { textTable } from '../../harness/report/table.js';
import { Hosts } from '../../harness/run/hosts.js';
import { infoOf, listStrategies } from '../../harness/run/registry.js';
import { defineCommand, timeoutOf, timeoutOption } from '../command.js';
import { EXIT } from '../io.js';

/** The registered strategies, in registry order. */
export const strategies = defineCommand({
  examples: [
    ['$0 strategies', 'name, description, whether it reads the ledger'],
    ['$0 strategies --json', 'as JSON'],
  ],
  options: (y) =>
    y
      .option('json', {
        type: 'boolean',
        default: false,
        describe: 'print [{name, description, readsLedger}]',
      })
      .option('timeout', timeoutOption),
  run: async (a, { io }) => {
    // Each loaded in a process of its own, as a study would run it: listing runs no plug-in here.
    const refs = listStrategies();
    const hosts = new Hosts({ timeout: timeoutOf(a.timeout), keep: refs.length, secrets: [] });
    const listed = await hosts
      .describe(refs)
      .then((all) => all.map(infoOf))
      .finally(() => hosts.close());
    if (a.json) io.out(jsonText(listed));
    else
      io.out(
        textTable(
          ['name', 'ledger', 'description'],
          listed.map((s) => [s.name, s.readsLedger ? 'reads' : '-', s.description]),
        ),
      );
    return EXIT.ok;
  },
});
