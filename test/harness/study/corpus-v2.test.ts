import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Row } from '../../../src/harness/types.js';
import { BUDGETS, VIOLATION_KINDS } from '../../../src/harness/vocabulary.js';
import { ROOT } from '../../helpers/corpus.js';
import { cand, compilations, corpus, each, entryOf, row, study, sum } from '../../helpers/corpus-v2.js';
import { reportsOf } from '../../helpers/reports.js';

const GATES = ['scope', 'freshness', 'authority', 'floor'] as const;
const violations = (r: Row) => VIOLATION_KINDS.reduce((s, k) => s + (r[`${k}_violations`] ?? 0), 0);
const gateFailures = (r: Row) => GATES.reduce((s, g) => s + (r[`${g}_violations`] ?? 0), 0);

describe('corpus v2: the cases and their certified expectations', () => {
  it('has a purpose for every case and only for its cases', () => {
    const purposes = corpus.purposes;
    expect([...purposes.keys()].sort()).toEqual(corpus.cases.map((c) => c.name));
    for (const text of purposes.values()) expect(text.length).toBeGreaterThan(40);
  });

  it('expects exactly what exact certifies: a bundle where a legal one exists, its refusal otherwise', async () => {
    for (const kase of corpus.cases) {
      for (const budget of BUDGETS) {
        const r = await row(kase.name, budget, 'exact');
        expect(
          r.extras.proven_optimal ?? r.extras.certificate !== undefined,
          `${kase.name}/${budget}`,
        ).toBeTruthy();
        expect({ success: r.success, reason: r.success ? null : r.reason }).toEqual({
          success: kase.expected[budget].success,
          reason: kase.expected[budget].success ? null : kase.expected[budget].reason,
        });
        if (r.success) expect(r.audit?.legal, `${kase.name}/${budget}`).toBe(true);
      }
    }
  });
});

describe('corpus v2: each case shows what it is for', () => {
  const COMPILERS = ['compiler', 'compiler-strict', 'compiler-v2'];

  it('over the corpus: compiler-v2 and exact always right and legal, no compiler admits a gate failure', async () => {
    for (const s of ['compiler-v2', 'exact']) {
      const rows = (await study).filter((r) => r.strategy === s);
      expect(
        rows.every((r) => r.status_correct && !(r.success && !r.audit?.legal)),
        s,
      ).toBe(true);
    }
    for (const s of COMPILERS)
      expect(
        sum(
          (await study).filter((r) => r.strategy === s),
          gateFailures,
        ),
        s,
      ).toBe(0);
    // The compiler's wrong outcomes are exactly the three cases the findings name.
    const wrong = (await study)
      .filter((r) => r.strategy === 'compiler' && !r.status_correct)
      .map((r) => r.case);
    expect(new Set(wrong)).toEqual(
      new Set(['cheapest-form-refuses', 'decorations-overrun', 'named-ineligible']),
    );
  });

  it('authority tempted: strategies without gates admit authority failures, the gated ones none', async () => {
    for (const s of ['dump', 'topk', 'weighted', 'tiered'])
      expect(
        sum(await each('authority-tempted', s), (r) => r.authority_violations),
        s,
      ).toBeGreaterThan(0);
    for (const s of ['gated', ...COMPILERS, 'exact', 'oracle'])
      expect(
        sum(await each('authority-tempted', s), (r) => r.authority_violations),
        s,
      ).toBe(0);
    expect((await row('authority-tempted', 'tight', 'topk')).must_recall).toBeLessThan(1);
    expect((await row('authority-tempted', 'tight', 'compiler')).must_recall).toBe(1);
    for (const id of ['inject-note', 'proposed-decision']) {
      expect(cand('authority-tempted', id).authority_eligible).toBe(false);
      expect(cand('authority-tempted', id).relevance).toBeGreaterThan(
        cand('authority-tempted', 'approved-decision').relevance,
      );
    }
  });

  it('the sixth decision: REJECTED_DEPENDENCY at every budget, the illegal dependency named in the trace', async () => {
    for (const budget of BUDGETS) {
      const { entry } = await entryOf('dependency-illegal', budget, 'compiler', 'patch-ref');
      expect(entry).toMatchObject({ decision: 'REJECTED_DEPENDENCY', dependency_closure: ['build-log-old'] });
      const dep = await entryOf('dependency-illegal', budget, 'compiler', 'build-log-old');
      expect(dep.entry?.reason_code).toBe('freshness_ineligible');
    }
    // At the medium budget nothing but the dependency stands in the way.
    const medium = corpus.cases.find((c) => c.name === 'dependency-illegal')!.budgets.medium;
    expect(
      cand('dependency-illegal', 'patch-ref').token_count +
        cand('dependency-illegal', 'build-log-old').token_count,
    ).toBeLessThan(medium - 100);
    for (const r of await each('dependency-illegal', 'gated')) expect(r.dependency_violations).toBe(1);
  });

  it('the cheapest form refuses where exact and compiler-v2 find the same legal bundle', async () => {
    for (const budget of BUDGETS) {
      const { failure } = await entryOf('cheapest-form-refuses', budget, 'compiler', 'migration-plan');
      expect(failure).toMatchObject({ reason: 'UNSATISFIED_DEPENDENCY' });
      expect(String(failure?.diagnostic)).toContain('alternative-collision:schema-full');
      expect((await row('cheapest-form-refuses', budget, 'compiler-strict')).success).toBe(false);
      const exact = await row('cheapest-form-refuses', budget, 'exact');
      expect(exact.audit?.legal).toBe(true);
      expect((await row('cheapest-form-refuses', budget, 'compiler-v2')).admitted).toEqual(exact.admitted);
      for (const s of ['dump', 'topk', 'weighted', 'gated'])
        expect((await row('cheapest-form-refuses', budget, s)).audit?.legal, s).toBe(false);
    }
  });

  it('relevance buys the dearer set: 670 against 400, and at the tight budget the runbook no longer fits', async () => {
    const ref = cand('relevance-buys-dearer', 'incident-ref');
    const full = cand('relevance-buys-dearer', 'incident-full');
    const resolver = cand('relevance-buys-dearer', ref.depends_on[0] as string);
    expect([ref.token_count + resolver.token_count, full.token_count]).toEqual([670, 400]);
    expect([ref.relevance, full.relevance]).toEqual([0.9, 0.7]);
    const compiler = await row('relevance-buys-dearer', 'tight', 'compiler');
    const oracle = await row('relevance-buys-dearer', 'tight', 'oracle');
    expect(compiler.admitted).toEqual(expect.arrayContaining(['incident-ref', 'resolver-tool']));
    expect(oracle.admitted).toContain('incident-full');
    expect((await entryOf('relevance-buys-dearer', 'tight', 'compiler', 'runbook')).entry?.decision).toBe(
      'REJECTED_BUDGET',
    );
    expect(compiler.rendered_tokens).toBeGreaterThan(oracle.rendered_tokens);
    expect(compiler.should_recall ?? 0).toBeLessThan(oracle.should_recall ?? 0);
    expect((await row('relevance-buys-dearer', 'tight', 'exact')).admitted).toEqual(oracle.admitted);
    // With room for everything every ledger-free strategy takes the resolver too.
    const roomy = (await study).filter((r) => r.case === 'relevance-buys-dearer' && r.budget === 'roomy');
    for (const s of ['compiler', 'compiler-v2', 'exact', 'topk'])
      expect(roomy.find((r) => r.strategy === s)?.rendered_tokens, s).toBe(
        roomy.find((r) => r.strategy === 'exact')?.rendered_tokens,
      );
  });

  it('decorations overrun: declared counts fit, nothing DISCRETIONARY, the reference refuses where a legal bundle exists', async () => {
    const kase = corpus.cases.find((c) => c.name === 'decorations-overrun')!;
    expect(kase.candidates.filter((c) => c.requirement === 'PREFERRED')).toHaveLength(12);
    expect(kase.candidates.some((c) => c.requirement === 'DISCRETIONARY')).toBe(false);
    const declared = kase.candidates.reduce((s, c) => s + c.token_count, 0);
    expect(declared).toBeLessThanOrEqual(kase.budgets.tight);
    for (const budget of ['tight', 'medium'] as const) {
      expect((await row('decorations-overrun', budget, 'compiler')).reason).toBe('INSUFFICIENT_BUDGET');
      const exact = await row('decorations-overrun', budget, 'exact');
      expect(exact.success).toBe(true);
      expect((await row('decorations-overrun', budget, 'compiler-v2')).rendered_tokens).toBe(
        exact.rendered_tokens,
      );
    }
    expect((await row('decorations-overrun', 'roomy', 'compiler')).success).toBe(true);
    for (const s of ['dump', 'topk', 'weighted', 'gated'])
      for (const r of await each('decorations-overrun', s)) expect(r.status_correct, s).toBe(true);
  });

  it('named but ineligible: the reference reports success without it, compiler-strict refuses', async () => {
    for (const budget of BUDGETS) {
      const r = await row('named-ineligible', budget, 'compiler');
      expect([r.success, r.reason]).toEqual([true, null]);
      expect(r.admitted).not.toContain('retention-policy-2024');
      expect(r.audit?.missing_required).toContain('retention-policy-2024');
      expect((await row('named-ineligible', budget, 'compiler-strict')).reason).toBe('REQUIRED_INELIGIBLE');
    }
  });

  it('a group split by promotion: the reference admits the named member alone, its partner no-earn', async () => {
    for (const budget of BUDGETS) {
      expect((await row('group-split-by-promotion', budget, 'compiler')).group_violations).toBe(1);
      const { entry } = await entryOf('group-split-by-promotion', budget, 'compiler', 'migration-script');
      expect(entry).toMatchObject({ decision: 'REJECTED_REDUNDANT', reason_code: 'no-earn' });
      for (const s of ['compiler-strict', 'compiler-v2', 'exact'])
        expect((await row('group-split-by-promotion', budget, s)).group_violations, s).toBe(0);
    }
    for (const s of ['topk', 'weighted', 'gated'])
      expect((await row('group-split-by-promotion', 'tight', s)).group_violations, s).toBe(1);
  });

  it('legal is not useful: two harmful kinds, admitted by every ledger-free strategy but Aider’s map (names alone here), none by the oracle', async () => {
    const harmful = ['old-preference', 'deprecated-tool'].map((id) => cand('legal-not-useful', id));
    expect(new Set(harmful.map((c) => c.kind)).size).toBe(2);
    for (const c of harmful) expect([c.relevance, c.token_count]).toEqual([0.55, 130]);
    const all = (await study).filter((r) => r.case === 'legal-not-useful');
    for (const s of new Set(all.map((r) => r.strategy)))
      if (s !== 'oracle' && !s.startsWith('aider-repomap'))
        expect(
          sum(await each('legal-not-useful', s), (r) => r.harmful_admission),
          s,
        ).toBeGreaterThan(0);
    expect(sum(await each('legal-not-useful', 'oracle'), (r) => r.harmful_admission)).toBe(0);
    expect(sum(all, violations)).toBe(0);
    for (const s of [...COMPILERS, 'exact'])
      expect(
        (await each('legal-not-useful', s)).every((r) => r.audit?.legal),
        s,
      ).toBe(true);
    const { entry } = await entryOf('legal-not-useful', 'medium', 'compiler', 'deprecated-tool');
    expect(entry).toMatchObject({ decision: 'REJECTED_BUDGET', reason_code: 'repair-drop' });
  });
});

describe('corpus v2: what is generated from its run', () => {
  it('reports/compiler-v2/ equals what the code produces now (npm run reports regenerates it)', async () => {
    const run = { rows: await study, compilations };
    for (const [name, text] of Object.entries(await reportsOf(run, corpus.name))) {
      expect(text, `reports/compiler-v2/${name} drifted: run npm run reports`).toBe(
        fs.readFileSync(path.join(ROOT, 'reports/compiler-v2', name), 'utf8'),
      );
    }
  });
});
