import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { bundleToJSON, compileContext, resultToJSON } from '../../../src/compiler/index.js';
import { verifyRun } from '../../../src/harness/audit/index.js';
import { caseInputs, loadStrategies, strategyInput } from '../../../src/harness/hosts/index.js';
import { strategyStats } from '../../../src/harness/metrics/index.js';
import { casesOf } from '../../../src/harness/runfolder/index.js';
import { type Cell, cells } from '../../../src/harness/study/matrix.js';
import type { CaseLedger, Row } from '../../../src/harness/types.js';
import { BUDGETS, PUBLISHED_ORDER } from '../../../src/harness/vocabulary.js';
import { measured, recordOf } from '../../helpers/compiled.js';
import { corpus, ROOT, referenceLedger } from '../../helpers/corpus.js';
import { reportsOf } from '../../helpers/reports.js';
import { referenceStudy } from '../../helpers/study.js';

const PUBLISHED = path.join(ROOT, 'corpus/compiler-v1/published');
/** What `verify` finds between these rows and the published run, as `verify <run-folder>` prints it. */
const verifyRows = (rows: readonly Row[], dir: string): string[] => [
  ...verifyRun({ rows, corpus: { name: 'rows', digest: null, cases: casesOf(rows) } }, dir).differences,
];
const published = JSON.parse(fs.readFileSync(path.join(PUBLISHED, 'results.json'), 'utf8'))
  .evaluations as Record<string, never>[];

describe('the reference study against the published run-001', () => {
  it('reproduces every one of the 252 published rows', async () => {
    const { rows } = await referenceStudy();
    expect(rows.filter((r) => (PUBLISHED_ORDER as readonly string[]).includes(r.strategy))).toHaveLength(
      published.length,
    );
    expect(verifyRows(rows, PUBLISHED)).toEqual([]);
  });

  it('verify notices a changed metric, hash, admitted set or a missing row', async () => {
    const { rows } = await referenceStudy();
    const k = rows.findIndex(
      (r) => r.strategy === 'compiler' && r.case === 'dependency-trap' && r.budget === 'tight',
    );
    const bent = rows.map(
      (r, j): Row => (j === k ? { ...r, distractor_admission: 1, bundle_hash: 'x', admitted: [] } : r),
    );
    const d = verifyRows(bent, PUBLISHED);
    expect(d.some((x) => x.startsWith('dependency-trap/tight/compiler: distractor_admission'))).toBe(true);
    expect(d.some((x) => x.startsWith('dependency-trap/tight/compiler: bundle_hash'))).toBe(true);
    expect(d.some((x) => x.startsWith('dependency-trap/tight/compiler: admitted'))).toBe(true);
    expect(verifyRows(rows.slice(1), PUBLISHED)).toContain(
      'budget-slack/tight/dump: row missing from the run',
    );
  });

  it('sums to the published totals, recomputed here from the vendored results.json', async () => {
    const { rows } = await referenceStudy();
    for (const name of ['dump', 'topk', 'weighted', 'gated', 'staged', 'oracle']) {
      const theirs = published.filter((e) => e.strategy === name) as unknown as Row[];
      const ours = strategyStats(rows.filter((r) => r.strategy === (name === 'staged' ? 'compiler' : name)));
      const total = (f: keyof Row) => theirs.reduce((s, e) => s + Number(e[f] ?? 0), 0);
      expect(ours.correct).toBe(theirs.filter((e) => e.status_correct).length);
      expect(ours.illegal).toBe(total('illegal_admission'));
      expect(ours.distractor).toBe(total('distractor_admission'));
      expect(ours.harmful).toBe(total('harmful_admission'));
      expect(ours.rendered_tokens).toBe(total('rendered_tokens'));
      expect(ours.violations).toEqual({
        scope: total('scope_violations'),
        freshness: total('freshness_violations'),
        authority: total('authority_violations'),
        floor: total('floor_violations'),
        dependency: total('dependency_violations'),
        group: total('group_violations'),
      });
    }
  });
});

describe('the run order and the reports', () => {
  it('runs cases sorted, budgets tight-medium-roomy, strategies in registry order', async () => {
    const { rows } = await referenceStudy();
    const names = (await loadStrategies()).map((s) => s.name);
    expect(names.slice(0, 6)).toEqual([...PUBLISHED_ORDER]);
    const expected = corpus().cases.flatMap((c) =>
      BUDGETS.flatMap((b) => names.map((s) => `${c.name}/${b}/${s}`)),
    );
    expect(rows.map((r) => `${r.case}/${r.budget}/${r.strategy}`)).toEqual(expected);
    // Registry order: the published six, then the rest by name.
    expect(names.slice(6)).toEqual([...names.slice(6)].sort());
  });

  it('the committed reports/ equal what the code produces now (npm run reports regenerates them)', async () => {
    for (const [name, text] of Object.entries(await reportsOf(await referenceStudy(), corpus().name))) {
      expect(text, `reports/${name} drifted: run npm run reports`).toBe(
        fs.readFileSync(path.join(ROOT, 'reports', name), 'utf8'),
      );
    }
  });
});

const inputFor = (cell: Cell, ledger: CaseLedger | undefined) =>
  strategyInput(cell.strategy, caseInputs(cell.kase, cell.budget, corpus().policy, ledger));

describe('one code path for every strategy', () => {
  it('the compiler through the harness gives the engine’s own bundle and result, byte for byte', async () => {
    const compiler = (await loadStrategies()).find((s) => s.name === 'compiler')!;
    for (const cell of cells(corpus(), [compiler])) {
      const input = inputFor(cell, undefined);
      const engine = compileContext(input.request, input.candidates, input.policy);
      const viaHarness = measured(compiler, input);
      expect(JSON.stringify(recordOf(viaHarness))).toBe(JSON.stringify(engine.result));
      expect(JSON.stringify(resultToJSON(recordOf(viaHarness)))).toBe(
        JSON.stringify(resultToJSON(engine.result)),
      );
      expect(JSON.stringify(viaHarness.outcome === 'bundle' ? bundleToJSON(viaHarness.bundle) : null)).toBe(
        JSON.stringify(engine.bundle && bundleToJSON(engine.bundle)),
      );
    }
  });
});

describe('the ledger reaches only the strategies that declare it', () => {
  it('strategyInput passes the ledger to the oracle alone', async () => {
    const strategies = await loadStrategies();
    const ledger = referenceLedger();
    for (const cell of cells(corpus(), strategies).slice(0, strategies.length)) {
      const input = inputFor(cell, ledger.get(cell.kase.name));
      expect('ledger' in input, cell.strategy.name).toBe(cell.strategy.readsLedger === true);
    }
    expect(strategies.filter((s) => s.readsLedger).map((s) => s.name)).toEqual(['oracle']);
  });

  it('the compiler gives the same bytes whether or not a ledger was loaded', async () => {
    const compiler = (await loadStrategies()).find((s) => s.name === 'compiler')!;
    const ledger = referenceLedger();
    for (const cell of cells(corpus(), [compiler])) {
      const bare = inputFor(cell, undefined);
      const withLedger = { ...bare, ledger: ledger.get(cell.kase.name) };
      expect(JSON.stringify(measured(compiler, withLedger))).toBe(JSON.stringify(measured(compiler, bare)));
    }
  });
});
