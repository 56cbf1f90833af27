import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { casePurposes, loadCorpus } from '../../../src/harness/input/corpus.js';
import { ledgerDirFor, loadLedger } from '../../../src/harness/input/ledger.js';
import { derivedFiles } from '../../../src/harness/output/run-folder.js';
import { renderFindings } from '../../../src/harness/report/findings.js';
import { loadStrategies } from '../../../src/harness/run/registry.js';
import { runStudy } from '../../../src/harness/run/runner.js';
import type { CompilationLine, Row } from '../../../src/harness/types.js';
import { BUDGETS } from '../../../src/harness/vocabulary.js';
import { ROOT } from '../../helpers/corpus.js';

const DIR = path.join(ROOT, 'corpus/compiler-v2');
const corpus = loadCorpus(DIR);
const compilations: CompilationLine[] = [];
const study = loadStrategies().then((strategies) =>
  runStudy(corpus, loadLedger(ledgerDirFor(corpus), corpus), strategies, (c) => compilations.push(c)),
);

const row = async (kase: string, budget: string, strategy: string): Promise<Row> => {
  const r = (await study).find((x) => x.case === kase && x.budget === budget && x.strategy === strategy);
  if (!r) throw new Error(`no row ${kase}/${budget}/${strategy}`);
  return r;
};
const each = async (kase: string, strategy: string): Promise<Row[]> =>
  Promise.all(BUDGETS.map((b) => row(kase, b, strategy)));
const sum = (rows: readonly Row[], f: (r: Row) => number | null) => rows.reduce((s, r) => s + (f(r) ?? 0), 0);

describe('corpus v2: the cases and their certified expectations', () => {
  it('has a purpose for every case and only for its cases', () => {
    const purposes = casePurposes(DIR);
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
  it('authority tempted: relevance rankers admit authority failures, the gated strategies none', async () => {
    for (const s of ['dump', 'topk', 'weighted'])
      expect(
        sum(await each('authority-tempted', s), (r) => r.authority_violations),
        s,
      ).toBeGreaterThan(0);
    for (const s of ['gated', 'compiler', 'compiler-v2', 'exact', 'oracle'])
      expect(
        sum(await each('authority-tempted', s), (r) => r.authority_violations),
        s,
      ).toBe(0);
  });

  it('the sixth decision: REJECTED_DEPENDENCY with the illegal dependency named in the trace', async () => {
    await study;
    const line = compilations.find(
      (c) => c.case === 'dependency-illegal' && c.budget === 'tight' && c.strategy === 'compiler',
    );
    if (!line) throw new Error('no compilation of dependency-illegal/tight/compiler');
    const entries = (line.result as { trace: { entries: Record<string, unknown>[] } }).trace.entries;
    const ref = entries.find((e) => e.candidate_id === 'patch-ref');
    expect(ref).toMatchObject({ decision: 'REJECTED_DEPENDENCY', dependency_closure: ['build-log-old'] });
    expect(entries.find((e) => e.candidate_id === 'build-log-old')?.reason_code).toBe('freshness_ineligible');
    expect(sum(await each('dependency-illegal', 'gated'), (r) => r.dependency_violations)).toBeGreaterThan(0);
  });

  it('the cheapest form refuses where exact and compiler-v2 find a bundle', async () => {
    for (const r of await each('cheapest-form-refuses', 'compiler')) expect(r.success).toBe(false);
    for (const s of ['exact', 'compiler-v2'])
      for (const r of await each('cheapest-form-refuses', s)) expect(r.audit?.legal, s).toBe(true);
  });

  it('relevance buys the dearer set: at the tight budget the compiler spends more and recalls less than the oracle', async () => {
    const compiler = await row('relevance-buys-dearer', 'tight', 'compiler');
    const oracle = await row('relevance-buys-dearer', 'tight', 'oracle');
    expect(compiler.admitted).toEqual(expect.arrayContaining(['incident-ref', 'resolver-tool']));
    expect(compiler.rendered_tokens).toBeGreaterThan(oracle.rendered_tokens);
    expect(compiler.should_recall ?? 0).toBeLessThan(oracle.should_recall ?? 0);
  });

  it('decorations overrun: the reference refuses at a budget where a legal bundle exists', async () => {
    const tight = await row('decorations-overrun', 'tight', 'compiler');
    expect(tight.reason).toBe('INSUFFICIENT_BUDGET');
    expect((await row('decorations-overrun', 'tight', 'exact')).success).toBe(true);
    // Admission's declared sum fits: only the unpriced decorations break the budget.
    const kase = corpus.cases.find((c) => c.name === 'decorations-overrun')!;
    const declared = kase.candidates.reduce((s, c) => s + c.token_count, 0);
    expect(declared).toBeLessThanOrEqual(kase.budgets.tight);
  });

  it('named but ineligible: the reference returns a bundle without it, compiler-strict refuses', async () => {
    for (const r of await each('named-ineligible', 'compiler')) {
      expect(r.success).toBe(true);
      expect(r.admitted).not.toContain('retention-policy-2024');
    }
    for (const r of await each('named-ineligible', 'compiler-strict')) expect(r.success).toBe(false);
  });

  it('a group split by promotion: the reference admits part of the group, compiler-strict the whole', async () => {
    for (const r of await each('group-split-by-promotion', 'compiler')) expect(r.group_violations).toBe(1);
    for (const r of await each('group-split-by-promotion', 'compiler-strict'))
      expect(r.group_violations).toBe(0);
  });

  it('legal is not useful: legal bundles with harm, two kinds of it, and none from the oracle', async () => {
    const kase = corpus.cases.find((c) => c.name === 'legal-not-useful')!;
    const harmful = ['old-preference', 'deprecated-tool'];
    expect(
      new Set(kase.candidates.filter((c) => harmful.includes(c.candidate_id)).map((c) => c.kind)).size,
    ).toBe(2);
    const compiler = await each('legal-not-useful', 'compiler');
    expect(compiler.every((r) => r.audit?.legal)).toBe(true);
    expect(sum(compiler, (r) => r.harmful_admission)).toBeGreaterThan(0);
    expect(sum(await each('legal-not-useful', 'oracle'), (r) => r.harmful_admission)).toBe(0);
  });
});

describe('corpus v2: what is generated from its run', () => {
  it('reports/compiler-v2/ equals what the code produces now (npm run reports regenerates it)', async () => {
    for (const [name, text] of Object.entries(derivedFiles(await study, corpus.name))) {
      expect(text, `reports/compiler-v2/${name} drifted: run npm run reports`).toBe(
        fs.readFileSync(path.join(ROOT, 'reports/compiler-v2', name), 'utf8'),
      );
    }
  });

  it('docs/findings.md is its template filled from a fresh run (npm run reports regenerates it)', async () => {
    const template = fs.readFileSync(path.join(ROOT, 'docs/findings.template.md'), 'utf8');
    const text = renderFindings(template, { rows: await study, compilations, purposes: casePurposes(DIR) });
    expect(text, 'docs/findings.md drifted: run npm run reports').toBe(
      fs.readFileSync(path.join(ROOT, 'docs/findings.md'), 'utf8'),
    );
  });

  it('a placeholder naming nothing in the run is an error, not a blank', async () => {
    const run = { rows: await study, compilations, purposes: casePurposes(DIR) };
    expect(renderFindings('{authority-tempted/tight/topk.authority_violations}', run)).toMatch(/^\d+$/);
    for (const bad of [
      '{authority-tempted/tight/nobody.must_recall}',
      '{authority-tempted/tight/topk.no_such_metric}',
      '{no-case/*/*.refused}',
      '{{purpose no-case}}',
      '{{decision authority-tempted tight compiler no-candidate}}',
      '{{unknown}}',
      '{authority-tempted/*/topk.admitted}',
    ])
      expect(() => renderFindings(bad, run), bad).toThrow(/findings:/);
  });

  it('a sum over budgets adds the rows, and a boolean counts its true rows', async () => {
    const run = { rows: await study, compilations, purposes: casePurposes(DIR) };
    const topk = await each('authority-tempted', 'topk');
    expect(renderFindings('{authority-tempted/*/topk.authority_violations}', run)).toBe(
      String(sum(topk, (r) => r.authority_violations)),
    );
    expect(renderFindings('{*/*/compiler.refused}', run)).toBe(
      String((await study).filter((r) => r.strategy === 'compiler' && !r.success).length),
    );
  });
});
