import { describe, expect, it } from 'vitest';
import { compileContext } from '../../src/compiler/index.js';
import { requestAt } from '../../src/harness/corpus/index.js';
import { BUDGETS } from '../../src/harness/vocabulary.js';
import { at, corpus } from '../helpers/corpus.js';
import { entry } from '../helpers/trace.js';

const compiled = (name: string, budget: 'tight' | 'medium' | 'roomy') => {
  const { request, candidates, policy } = at(name, budget);
  return compileContext(request, candidates, policy);
};

describe('trace v2 examples (docs/compiler.md §15)', () => {
  it('dependency-trap, medium: the unit of 20 + 650 shares one before/after', () => {
    const out = compiled('dependency-trap', 'medium');
    for (const id of ['ref-cheap', 'resolver-tool']) {
      expect(entry(out, id)).toMatchObject({ budget_before: 1300, budget_after: 630 });
    }
    expect(entry(out, 'resolver-tool').pulled_in_by).toEqual(['ref-cheap']);
    expect(entry(out, 'ref-cheap')).toMatchObject({
      dependency_closure: ['resolver-tool'],
      pulled_in_by: [],
    });
  });

  it('dependency-cycle, medium: a cycle is one unit of 220 and terminates', () => {
    const out = compiled('dependency-cycle', 'medium');
    expect(entry(out, 'cyc-a')).toMatchObject({
      budget_before: 800,
      budget_after: 580,
      dependency_closure: ['cyc-b'],
    });
    expect(entry(out, 'cyc-b')).toMatchObject({
      budget_before: 800,
      budget_after: 580,
      dependency_closure: ['cyc-a'],
      pulled_in_by: ['cyc-a'],
    });
  });

  it('shared-dependency, medium: the tool is paid once', () => {
    const out = compiled('shared-dependency', 'medium');
    expect(entry(out, 'ref-a')).toMatchObject({ budget_before: 800, budget_after: 480 });
    expect(entry(out, 'tool-def')).toMatchObject({
      budget_before: 800,
      budget_after: 480,
      pulled_in_by: ['ref-a'],
    });
    expect(entry(out, 'ref-b')).toMatchObject({ budget_before: 480, budget_after: 455 });
  });
});

describe('trace v2 is complete and honest on every corpus compilation', () => {
  const all = corpus().cases.flatMap((c) =>
    BUDGETS.map((b) => {
      const request = requestAt(c, b);
      return { name: `${c.name}/${b}`, kase: c, out: compileContext(request, c.candidates, corpus().policy) };
    }),
  );

  it.each(all)('$name', ({ kase, out }) => {
    const byId = new Map(kase.candidates.map((c) => [c.candidate_id, c]));
    const admitted = out.result.trace.entries.filter((e) => e.decision === 'ADMITTED');
    // Every admission shows the budget its unit spent; the units together spent what was used.
    const units = new Map<string, number>();
    for (const e of admitted) {
      expect(e.budget_before - e.budget_after).toBeGreaterThanOrEqual(e.marginal_cost);
      units.set(`${e.budget_before}/${e.budget_after}`, e.budget_before - e.budget_after);
    }
    const spent = [...units.values()].reduce((s, n) => s + n, 0);
    const declared = admitted.reduce((s, e) => s + (byId.get(e.candidate_id)?.token_count ?? 0), 0);
    expect(spent).toBe(declared);
    for (const e of out.result.trace.entries) {
      const c = byId.get(e.candidate_id)!;
      // Every candidate with dependencies lists them.
      if (c.depends_on.length > 0)
        expect(e.dependency_closure).toEqual(expect.arrayContaining([...c.depends_on]));
      // Only admissions spend; a repair drop keeps the accounting of the admission it undid.
      if (e.decision !== 'ADMITTED' && e.reason_code !== 'repair-drop')
        expect(e.budget_after).toBe(e.budget_before);
      // A pulled-in dependency names roots that are admitted and depend on it.
      for (const root of e.pulled_in_by) {
        expect(admitted.map((a) => a.candidate_id)).toContain(root);
        expect(entry(out, root).dependency_closure).toContain(e.candidate_id);
      }
    }
  });
});
