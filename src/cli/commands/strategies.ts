import { jsonText } from '../../harness/output/files.js';
import { textTable } from '../../harness/report/table.js';
import { loadStrategies } from '../../harness/run/registry.js';
import { defineCommand } from '../command.js';
import { EXIT } from '../io.js';

/** The registered strategies, in registry order. */
export const strategies = defineCommand({
  name: 'strategies',
  describe: 'list the registered strategies',
  options: (y) => y.option('json', { type: 'boolean', default: false }),
  run: async (a, { io }) => {
    const all = await loadStrategies();
    const listed = all.map((s) => ({
      name: s.name,
      description: s.description,
      readsLedger: s.readsLedger === true,
    }));
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
