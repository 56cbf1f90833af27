import { jsonText } from '../harness/files.js';
import { loadStrategies } from '../harness/registry.js';
import { textTable } from '../harness/table.js';
import { EXIT, type ExitCode, type Io } from './io.js';

/** The registered strategies, in registry order. */
export async function strategiesCommand(a: { readonly json: boolean }, io: Io): Promise<ExitCode> {
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
}
