/**
 * The committed reports are built from REPORT_STRATEGIES, not from whatever is registered: a
 * plug-in registered beside the strategies that ship (as docs/adding-a-strategy.md adds one)
 * changes none of the files the drift tests compare.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  listStrategies,
  loadStrategies,
  loadStrategyFile,
  registryOrder,
} from '../../../src/harness/study/registry.js';
import { REPORT_STRATEGIES } from '../../../src/harness/vocabulary.js';
import { corpus, ROOT } from '../../helpers/corpus.js';
import { reportStrategies, reportsOf } from '../../helpers/reports.js';
import { finishedStudy } from '../../helpers/study.js';
import { tempDir } from '../../helpers/temp.js';

const tmp = tempDir('report-strategies');

/** A plug-in as a user writes one, loaded by the registry's loader; its name sorts among the shipped ones. */
function plugin() {
  const file = path.join(tmp, 'aa-probe.mjs');
  fs.writeFileSync(
    file,
    "export default { name: 'aa-probe', description: 'admits nothing', assemble() { return { admitted: [] }; } };\n",
  );
  return loadStrategyFile(file);
}

describe('the report strategies', () => {
  it('are registered, each once, in registry order', () => {
    const registered = listStrategies().map((s) => s.name);
    for (const name of REPORT_STRATEGIES) expect(registered, name).toContain(name);
    expect(new Set(REPORT_STRATEGIES).size).toBe(REPORT_STRATEGIES.length);
    expect([...REPORT_STRATEGIES].sort(registryOrder)).toEqual([...REPORT_STRATEGIES]);
  });

  it('a plug-in registered beside them changes no committed report', async () => {
    const shipped = await loadStrategies();
    const registered = [...shipped, await plugin()].sort((a, b) => registryOrder(a.name, b.name));
    // What the corpus-v2 study runs (reports/compiler-v2/, docs/findings.md): the plug-in left out.
    expect(reportStrategies(registered)).toEqual(reportStrategies(shipped));
    expect(reportStrategies(registered).map((s) => s.name)).toEqual([...REPORT_STRATEGIES]);
    // What the reference drift test compares: the rows of a study that ran the plug-in too.
    const run = await finishedStudy({ strategies: registered });
    expect(run.rows.filter((r) => r.strategy === 'aa-probe')).toHaveLength(corpus().cases.length * 3);
    for (const [name, text] of Object.entries(await reportsOf(run, corpus().name)))
      expect(text, `reports/${name}`).toBe(fs.readFileSync(path.join(ROOT, 'reports', name), 'utf8'));
  });
});
