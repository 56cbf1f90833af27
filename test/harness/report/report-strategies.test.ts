/**
 * The committed reports are built from REPORT_STRATEGIES, not from whatever is registered: a
 * plug-in registered beside the strategies that ship (as docs/adding-a-strategy.md adds one)
 * changes none of the files the drift tests compare.
 */
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { listStrategies, loadStrategies } from '../../../src/harness/hosts/index.js';
import type { Strategy } from '../../../src/harness/types.js';
import { REPORT_STRATEGIES } from '../../../src/harness/vocabulary.js';
import { corpus, ROOT } from '../../helpers/corpus.js';
import { reportStrategies, reportsOf } from '../../helpers/reports.js';
import { finishedStudy } from '../../helpers/study.js';
import { tempDir } from '../../helpers/temp.js';

const tmp = tempDir('report-strategies');

/** A plug-in as a user writes one, loaded as Node loads a module; its name sorts among the shipped ones. */
async function plugin(): Promise<Strategy> {
  const file = path.join(tmp, 'aa-probe.mjs');
  fs.writeFileSync(
    file,
    "export default { name: 'aa-probe', description: 'admits nothing', assemble() { return { admitted: [] }; } };\n",
  );
  return (await import(pathToFileURL(file).href)).default as Strategy;
}

/** Strategies in the order the registry lists files of their names (none of them loaded). */
function inRegistryOrder<S extends { readonly name: string }>(strategies: readonly S[]): S[] {
  const dir = path.join(tmp, 'listed');
  fs.mkdirSync(dir, { recursive: true });
  for (const s of strategies) fs.writeFileSync(path.join(dir, `${s.name}.ts`), '');
  const order = listStrategies(dir).map((r) => r.name);
  return [...strategies].sort((a, b) => order.indexOf(a.name) - order.indexOf(b.name));
}

describe('the report strategies', () => {
  it('are registered, each once, in registry order', () => {
    const registered = listStrategies().map((s) => s.name);
    for (const name of REPORT_STRATEGIES) expect(registered, name).toContain(name);
    expect(new Set(REPORT_STRATEGIES).size).toBe(REPORT_STRATEGIES.length);
    expect(registered.filter((n) => (REPORT_STRATEGIES as readonly string[]).includes(n))).toEqual([
      ...REPORT_STRATEGIES,
    ]);
  });

  it('a plug-in registered beside them changes no committed report', async () => {
    const shipped = await loadStrategies();
    const registered = inRegistryOrder([...shipped, await plugin()]);
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
