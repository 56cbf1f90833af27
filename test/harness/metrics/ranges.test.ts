/**
 * Every figure of the metric catalogue within the range the catalogue gives it: every row of every
 * shipped strategy on the reference corpus and on generated corpora (their seed printed), every
 * strategy figure and localization figure over those rows, and the row figures of random bundles
 * drawn from random pools, several forms of one content among them.
 */
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type ContextCandidate, defaultPolicy, renderedCost } from '../../../src/compiler/index.js';
import { ledgerDirFor, loadCorpus, loadLedger } from '../../../src/harness/corpus/index.js';
import { writeCorpus } from '../../../src/harness/generate/write-case.js';
import { loadStrategies } from '../../../src/harness/hosts/index.js';
import {
  COLUMNS,
  FIGURES,
  PAIRED_FIGURES,
  type Range,
  ROW_MEASURES,
  ROW_METRICS,
  rangeText,
  within,
} from '../../../src/harness/metrics/catalogue.js';
import { localizationOf } from '../../../src/harness/metrics/found-files.js';
import { measureBundle } from '../../../src/harness/metrics/measures.js';
import { score } from '../../../src/harness/metrics/scores.js';
import { rowsOf, statsByStrategy, strategiesOf } from '../../../src/harness/metrics/stats.js';
import { readRunFolder } from '../../../src/harness/runfolder/index.js';
import type { CaseLedger, EvalClass, Row } from '../../../src/harness/types.js';
import { BUDGETS, EVAL_CLASSES, SELF_CORPUS } from '../../../src/harness/vocabulary.js';
import { randomCase, runs } from '../../helpers/arbitrary.js';
import { ROOT } from '../../helpers/corpus.js';
import { policy } from '../../helpers/pool.js';
import { finishedStudy, referenceStudy } from '../../helpers/study.js';
import { tempDir } from '../../helpers/temp.js';

/** The generated corpora's seed and fast-check's: set CTXBENCH_SEED to repeat a run. */
const SEED = process.env.CTXBENCH_SEED ?? '20261215';
const tmp = tempDir('ranges');

/** One line per value outside its range, naming where it is. */
function outside(where: string, name: string, range: Range, v: number | boolean | null): string[] {
  return v === null || within(range, v) ? [] : [`${where}: ${name} = ${v}, outside ${rangeText(range)}`];
}

/**
 * Every catalogue figure of the rows and of each strategy over them; for an ingested corpus, where
 * they are defined (its must content is files, the task is none), its localization figures too.
 */
function problems(rows: readonly Row[], ingested = false): string[] {
  const found: string[] = [];
  for (const r of rows) {
    const at = `${r.case}/${r.budget}/${r.strategy}`;
    for (const m of ROW_METRICS) found.push(...outside(at, m.name, m.range, r[m.name]));
    for (const m of ROW_MEASURES) found.push(...outside(at, m.name, m.range, r.measures?.[m.name] ?? null));
    for (const f of PAIRED_FIGURES) found.push(...outside(at, `paired ${f.name}`, f.range, f.of(r)));
  }
  for (const [name, s] of statsByStrategy(rows)) {
    for (const f of FIGURES) {
      const v = f.of(s);
      found.push(...outside(name, f.name, f.range, v));
      // A rate counts at most all it counts among.
      if (f.among !== undefined && (v ?? 0) > f.among(s))
        found.push(`${name}: ${f.name} ${v} of ${f.among(s)}`);
    }
    for (const budget of ingested ? BUDGETS : []) {
      const l = localizationOf(rowsOf(rows, name, budget));
      const at = `${name}/${budget}`;
      for (const sense of ['fullText', 'anyForm'] as const)
        for (const k of ['avg', 'all', 'any'] as const)
          found.push(...outside(at, `${sense} ${k}`, COLUMNS.avg_full_text.range, l[sense][k]));
      // The share found in full text never exceeds the share found in any form.
      for (const k of ['avg', 'all', 'any'] as const)
        if ((l.fullText[k] ?? 0) > (l.anyForm[k] ?? 1)) found.push(`${at}: ${k} full text over any form`);
      found.push(...outside(at, 'must_token_share', COLUMNS.file_precision.range, l.must_token_share));
      found.push(...outside(at, 'file_precision', COLUMNS.file_precision.range, l.file_precision));
      found.push(...outside(at, 'mean_tokens', COLUMNS.mean_tokens.range, l.mean_tokens));
    }
  }
  return found;
}

describe('every measure within its range', () => {
  it('holds every range the catalogue gives: each entry has one, low at most high', () => {
    const entries = [...ROW_METRICS, ...ROW_MEASURES, ...FIGURES, ...PAIRED_FIGURES];
    expect(entries.length).toBeGreaterThan(60);
    for (const e of entries) expect(e.range.low, e.label).toBeLessThanOrEqual(e.range.high);
  });

  it('the check sees a value out of range: a nDCG of 1.11, a count of 0.5, a negative count', () => {
    const ndcg = ROW_MEASURES.find((m) => m.name === 'ndcg')?.range as Range;
    expect(within(ndcg, 1.11)).toBe(false);
    expect(within(ndcg, 1)).toBe(true);
    const count = ROW_METRICS.find((m) => m.name === 'distractor_admission')?.range as Range;
    expect([within(count, 0.5), within(count, -1), within(count, 3)]).toEqual([false, false, true]);
    expect(outside('c/tight/s', 'ndcg', ndcg, 1.48)).toEqual(['c/tight/s: ndcg = 1.48, outside [0, 1]']);
  });

  it('on the reference corpus, every row of every shipped strategy', async () => {
    const { rows } = await referenceStudy();
    expect(strategiesOf(rows).length).toBeGreaterThanOrEqual(18);
    expect(problems(rows)).toEqual([]);
  });

  it('on the ingested corpus of reports/, every committed row, and its localization figures', () => {
    const rows = readRunFolder(path.join(ROOT, 'reports', SELF_CORPUS.name)).rows;
    expect(strategiesOf(rows).length).toBeGreaterThanOrEqual(18);
    expect(problems(rows, true)).toEqual([]);
  });

  it.each([
    ['mixed', 40, 4],
    ['agent', 60, 3],
  ] as const)(
    `on generated %s pools of %i candidates (seed ${SEED}), every row of every shipped strategy`,
    async (profile, candidates, cases) => {
      const dir = path.join(tmp, profile);
      writeCorpus(dir, { seed: `${SEED}-${profile}`, cases, candidates, profile, policy: defaultPolicy() });
      const corpus = loadCorpus(dir);
      const { rows } = await finishedStudy({
        corpus,
        ledger: loadLedger(ledgerDirFor(corpus), corpus),
        strategies: await loadStrategies(),
      });
      expect(rows.length).toBe(cases * 3 * strategiesOf(rows).length);
      expect(problems(rows)).toEqual([]);
    },
  );
});

/** A random ledger over a pool's contents: each a class, or left out (unlabelled). */
const ledgerOf = (pool: readonly ContextCandidate[], classes: readonly (EvalClass | null)[]): CaseLedger => {
  const identities = [...new Set(pool.map((c) => c.content_identity))].sort();
  const truth = identities.flatMap((id, k) => {
    const c = classes[k % classes.length] ?? null;
    return c === null ? [] : [[id, { eval_class: c, min_representation: 'full' }] as const];
  });
  return { expected: { success: true, reason: null }, identity_truth: Object.fromEntries(truth) };
};

describe(`row figures of random bundles from random pools (fast-check seed ${SEED})`, () => {
  it('every metric and measure of any subset in any order lies in its range', () => {
    const arbitrary = fc.record({
      pool: randomCase(14),
      classes: fc.array(fc.option(fc.constantFrom(...EVAL_CLASSES), { nil: null }), { minLength: 1 }),
      // Which candidates the bundle holds, in which order: often two forms of one content.
      pick: fc.array(fc.nat(40), { maxLength: 14 }),
      budget: fc.nat(400),
    });
    fc.assert(
      fc.property(arbitrary, ({ pool, classes, pick, budget }) => {
        const candidates = pool.candidates;
        const live = [...new Set(pick.map((k) => k % candidates.length))].map(
          (k) => candidates[k] as ContextCandidate,
        );
        const ledger = ledgerOf(candidates, classes);
        const p = policy();
        const tokens = renderedCost(live, pool.request, p);
        const laid = { live, request: pool.request, policy: p, renderedTokens: tokens, budget };
        const m = measureBundle(laid, candidates, ledger);
        const admitted = live.map((c) => c.candidate_id);
        const metrics = score(
          { admitted, reason: null, renderedTokens: tokens, budget },
          ledger.expected,
          candidates,
          ledger,
        );
        const found = [
          ...ROW_MEASURES.flatMap((x) => outside('bundle', x.name, x.range, m[x.name] ?? null)),
          ...ROW_METRICS.flatMap((x) => outside('bundle', x.name, x.range, metrics[x.name])),
        ];
        expect(found, admitted.join(',')).toEqual([]);
      }),
      { seed: Number.parseInt(SEED, 10) || 1, numRuns: runs(300, 3000) },
    );
  });
});
