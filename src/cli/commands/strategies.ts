import { Hosts, infoOf, listStrategies } from '../../harness/hosts/index.js';
import { jsonText } from '../../harness/output/index.js';
import { defineCommand, formatOption, oneOutput, tableOutput, timeoutOf, timeoutOption } from '../command.js';
import { EXIT } from '../io.js';

/** The registered strategies, in registry order. */
export const strategies = defineCommand({
  examples: [
    ['$0 strategies', 'name, description, whether it reads the ledger'],
    ['$0 strategies --json', 'as JSON: [{name, description, readsLedger}], a fixed contract'],
    ['$0 strategies --format md', 'the table as Markdown, for a document'],
  ],
  options: (y) =>
    y
      .option('json', {
        type: 'boolean',
        default: false,
        describe: 'print [{name, description, readsLedger}] (--format json prints the table alone)',
      })
      .option('format', formatOption)
      .option('timeout', timeoutOption),
  run: async (a, { io }) => {
    oneOutput(a.json, a.format);
    // Each loaded in a process of its own, as a study would run it: listing runs no plug-in here.
    const refs = listStrategies();
    const hosts = new Hosts({ timeout: timeoutOf(a.timeout), keep: refs.length, secrets: [] });
    const listed = await hosts
      .describe(refs)
      .then((all) => all.map(infoOf))
      .finally(() => hosts.close());
    if (a.json) io.out(jsonText(listed));
    else
      tableOutput(io, a.format).table({
        headers: ['name', 'ledger', 'description'],
        rows: listed.map((s) => [s.name, s.readsLedger ? 'reads' : null, s.description]),
        align: ['left', 'left', 'left'],
      });
    return EXIT.ok;
  },
});
