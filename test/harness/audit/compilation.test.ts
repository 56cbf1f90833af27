import seedrandom from 'seedrandom';
import { beforeAll, describe, expect, it } from 'vitest';
import { bundleToJSON, readBundle, readResult, resultToJSON } from '../../../src/compiler/index.js';
import { checkCompilation } from '../../../src/harness/audit/index.js';
import { generateCase } from '../../../src/harness/generate/index.js';
import { caseInputs, loadStrategies, strategyInput } from '../../../src/harness/hosts/index.js';
import { compileAwaited } from '../../../src/harness/session/index.js';
import type { ValidationRule } from '../../../src/harness/types.js';
import { BUDGETS, VALIDATION_RULES } from '../../../src/harness/vocabulary.js';
import { corpus, referenceLedger } from '../../helpers/corpus.js';
import { counted, figureRow, n } from '../../helpers/figures.js';
import { compilerTraced } from '../../helpers/forgeries.js';
import { inputAt } from '../../helpers/generated.js';
import { type Doc, GENERATORS } from '../../helpers/mutants.js';
import { FULL } from '../../helpers/tier.js';

type CheckInputs = Parameters<typeof checkCompilation>[1];

const SEED = 'validate-mutants-1';

interface Honest {
  readonly where: string;
  readonly strategy: string;
  readonly doc: Doc;
  readonly inputs: CheckInputs;
}

/** Every strategy's compilations: the reference corpus, and generated pools of both profiles. */
const honest: Honest[] = [];
beforeAll(async () => {
  const ledger = referenceLedger();
  const pools = [
    ...corpus().cases.flatMap((k) =>
      BUDGETS.map((b) => ({
        where: `${k.name}/${b}`,
        inputs: caseInputs(k, b, corpus().policy, ledger.get(k.name)),
      })),
    ),
    ...[1, 2, 3].flatMap((seed) =>
      (['mixed', 'agent'] as const).flatMap((profile) =>
        BUDGETS.map((b) => ({
          where: `${profile}-${seed}/${b}`,
          inputs: inputAt(generateCase(`validate-${seed}`, 40, 'generated', profile), b),
        })),
      ),
    ),
  ];
  for (const strategy of await loadStrategies()) {
    for (const { where, inputs } of pools) {
      if (strategy.readsLedger && inputs.ledger === undefined) continue;
      const out = await compileAwaited(strategy, strategyInput(strategy, inputs));
      if (out.outcome === 'error') throw new Error(`${strategy.name} on ${where}: ${out.message}`);
      // Through JSON and back, as validate reads a file.
      const doc: Doc = JSON.parse(
        JSON.stringify({
          bundle: out.outcome === 'bundle' ? bundleToJSON(out.bundle) : null,
          result: resultToJSON(out.record),
          rendered_text: out.outcome === 'bundle' ? out.renderedText : null,
          ...(out.outcome === 'bundle' && out.layout === 'own' ? { layout: 'own' } : {}),
          extras: out.extras,
        }),
      );
      honest.push({ where, strategy: strategy.name, doc, inputs });
    }
  }
});

const check = (doc: Doc, inputs: CheckInputs) =>
  checkCompilation(
    {
      bundle: doc.bundle === null ? null : readBundle(doc.bundle),
      result: readResult(doc.result, { anyReason: true }),
      rendered_text: doc.rendered_text,
      layout: doc.layout,
      raw: doc,
    },
    inputs,
  );

describe('an honest compilation', () => {
  it('breaks no rule but legality and the budget: what a strategy chose, never how it was written down', () => {
    expect(honest.length).toBeGreaterThan(500);
    for (const h of honest) {
      const rules = new Set(check(h.doc, h.inputs).map((p) => p.rule));
      for (const r of rules) expect(['legal', 'budget'], `${h.strategy} on ${h.where}: ${r}`).toContain(r);
    }
  });

  it('from the compiler in refuse mode breaks no rule at all', () => {
    for (const h of honest.filter((x) => ['compiler-strict', 'compiler-v2'].includes(x.strategy)))
      expect(check(h.doc, h.inputs), `${h.strategy} on ${h.where}`).toEqual([]);
  });
});

describe(`mutants (seed ${SEED})`, () => {
  it('every mutant is rejected with exactly the rule its generator broke, at least 1,000 of them', () => {
    const rng = seedrandom(SEED);
    const pick = (n: number) => Math.floor(rng() * n);
    // Bases with nothing wrong, so that whatever is found was put there by the mutation.
    // Every other base in CI (each strategy, case and budget still met), all under test:full.
    // Not the peers that lay out their own order: an order mutant means nothing there
    // (test/harness/study/layout-own.test.ts checks those).
    const bases = honest.filter(
      (h, k) => (FULL || k % 2 === 0) && h.doc.layout === undefined && check(h.doc, h.inputs).length === 0,
    );
    const tried = new Map<string, number>();
    const rounds = FULL ? 4 : 1;
    for (let round = 0; round < rounds; round++) {
      for (const base of bases) {
        for (const g of GENERATORS) {
          const m = g.make(base.doc, base.inputs, pick);
          if (m === null) continue;
          const found = new Set(check(m.doc, m.inputs ?? base.inputs).map((p) => p.rule));
          const compiler = compilerTraced(base.strategy, base.doc);
          const want = new Set<ValidationRule>([
            g.rule,
            ...(g.also ?? []),
            ...((compiler && g.alsoOnCompiler) || []),
          ]);
          expect([...found].sort(), `${g.name} on ${base.strategy} ${base.where}`).toEqual([...want].sort());
          tried.set(g.rule, (tried.get(g.rule) ?? 0) + 1);
        }
      }
    }
    const total = [...tried.values()].reduce((a, b) => a + b, 0);
    console.log(
      `validate mutants (seed ${SEED}): ${total} rejected, by rule ${JSON.stringify(Object.fromEntries(tried))}`,
    );
    expect(total).toBeGreaterThanOrEqual(FULL ? 10_000 : 1000);
    // Every rule a generator can break alone was exercised.
    for (const rule of VALIDATION_RULES.filter((r) => r !== 'budget'))
      expect(tried.get(rule) ?? 0, rule).toBeGreaterThan(20);
    figureRow(
      'validate mutants',
      'test/harness/audit/compilation.test.ts',
      `${n(total)} mutants of ${n(bases.length)} honest compilations (seed \`${SEED}\`), each rejected with exactly its rule: ${counted(Object.fromEntries(tried))}`,
    );
  });
});
