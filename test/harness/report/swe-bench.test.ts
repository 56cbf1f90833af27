/**
 * The SWE-bench reproduction (issue 35): reports/swe-bench-lite/ and docs/swe-bench.md against the
 * committed rows, everywhere, without the repositories; the statements of the page held against
 * those rows; and under `npm run test:full`, with CTXBENCH_SWE_REPOS naming a folder of the
 * repositories (`owner__name`), the corpus ingested again and compared by digest.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { localizationOf, type PrefixStability, pairedTest } from '../../../src/harness/metrics/index.js';
import { heldOut } from '../../../src/harness/relevance-split.js';
import { renderFindings } from '../../../src/harness/report/index.js';
import { corpusDigest } from '../../../src/harness/runfolder/index.js';
import { derivedFiles } from '../../../src/harness/runfolder/rows.js';
import type { BudgetName } from '../../../src/harness/types.js';
import {
  BUDGETS,
  REPORT_STRATEGIES,
  SWE_BENCH_LITE,
  sweBenchLiteArgs,
} from '../../../src/harness/vocabulary.js';
import { cli } from '../../helpers/cli.js';
import { ROOT } from '../../helpers/corpus.js';
import { sweBenchRows, sweBenchRun } from '../../helpers/reports.js';
import { tempDir } from '../../helpers/temp.js';
import { FULL } from '../../helpers/tier.js';

const REPORTS = path.join(ROOT, 'reports', SWE_BENCH_LITE.name);
const rows = sweBenchRows();
const committed = JSON.parse(fs.readFileSync(path.join(REPORTS, 'corpus.json'), 'utf8')) as {
  repositories: string[];
  digest: string;
};
const REPOS = process.env.CTXBENCH_SWE_REPOS;
const at = (strategy: string, budget: BudgetName) =>
  localizationOf(rows.filter((r) => r.strategy === strategy && r.budget === budget));

/**
 * McNemar's exact p of A against B on whether each instance's gold file is held whole, over the
 * instances `keep` accepts: the p-values the page quotes, held to the rows.
 */
function mcnemarP(
  a: string,
  b: string,
  budget: BudgetName,
  keep: (c: string) => boolean = () => true,
): number {
  const whole = (s: string) =>
    new Map(
      rows
        .filter((r) => r.strategy === s && r.budget === budget && keep(r.case))
        .map((r) => [r.case, r.success && r.measures?.must_sufficient_recall === 1]),
    );
  const [x, y] = [whole(a), whole(b)];
  return pairedTest(
    [...x].map(([c, v]) => [v, y.get(c) ?? null] as const),
    `${a}/${b}/${budget}`,
  ).p as number;
}

describe('reports/swe-bench-lite and docs/swe-bench.md', () => {
  it('hold every shipped strategy over every instance of the nine repositories, at the paper limits', () => {
    expect(committed.repositories).toEqual([...SWE_BENCH_LITE.repositories]);
    expect([...new Set(rows.map((r) => r.strategy))].sort()).toEqual([...REPORT_STRATEGIES].sort());
    const cases = new Set(rows.map((r) => r.case));
    const records = fs
      .readFileSync(path.join(ROOT, SWE_BENCH_LITE.records), 'utf8')
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => JSON.parse(l) as { instance_id: string; repo: string });
    const wanted = records.filter((r) => (SWE_BENCH_LITE.repositories as readonly string[]).includes(r.repo));
    expect([...cases].sort()).toEqual(wanted.map((r) => r.instance_id).sort());
    expect(rows).toHaveLength(cases.size * BUDGETS.length * REPORT_STRATEGIES.length);
    expect(new Set(rows.map((r) => r.budget_tokens))).toEqual(new Set([13000, 27000, 50000]));
  });

  // A drift check of committed pages: the full tier's (test/helpers/tier.ts).
  it.runIf(FULL)('are what the code makes of the committed rows (npm run swe-bench regenerates them)', () => {
    const summary = JSON.parse(fs.readFileSync(path.join(REPORTS, 'summary.json'), 'utf8')) as {
      prefix_stability: Record<string, PrefixStability>;
    };
    const prefix = new Map(Object.entries(summary.prefix_stability));
    const made = derivedFiles(rows, SWE_BENCH_LITE.name, true, prefix);
    for (const name of ['summary.json', 'report.md'])
      expect(made[name], `reports/${SWE_BENCH_LITE.name}/${name} drifted`).toBe(
        fs.readFileSync(path.join(REPORTS, name), 'utf8'),
      );
    const template = fs.readFileSync(path.join(ROOT, 'docs/swe-bench.template.md'), 'utf8');
    const run = sweBenchRun();
    expect(
      renderFindings(template, run, new Map([[SWE_BENCH_LITE.name, run]])),
      'docs/swe-bench.md drifted',
    ).toBe(fs.readFileSync(path.join(ROOT, 'docs/swe-bench.md'), 'utf8'));
  });

  it('the statements of the page hold on the committed rows', () => {
    // Each Lite instance edits one file: All, Any and Avg are one figure.
    for (const b of BUDGETS)
      for (const s of REPORT_STRATEGIES) {
        const f = at(s, b);
        expect(f.fullText.all, `${s} ${b}`).toBe(f.fullText.avg);
        expect(f.fullText.any, `${s} ${b}`).toBe(f.fullText.avg);
      }
    // A path list finds nearly every file by name and none whole.
    for (const b of BUDGETS) {
      expect(at('cheapest-form', b).fullText.avg, b).toBe(0);
      // Nearly: at 13k the names of the largest trees do not all fit, and the likeliest go first.
      expect(at('cheapest-form', b).anyForm.avg as number, b).toBeGreaterThan(0.9);
    }
    STATEMENTS();
  });

  it.skipIf(!FULL || REPOS === undefined)(
    `ingesting the instances again makes the same corpus${FULL && REPOS !== undefined ? '' : ' (skipped: needs npm run test:full and CTXBENCH_SWE_REPOS)'}`,
    async () => {
      const out = path.join(tempDir('swe-corpus'), SWE_BENCH_LITE.name);
      const made = await cli(
        'ingest',
        '--repos',
        REPOS as string,
        '--out',
        out,
        '--quiet',
        ...sweBenchLiteArgs(),
      );
      expect(made.code, made.stderr).toBe(0);
      expect(corpusDigest(out)).toBe(committed.digest);
    },
    3_600_000,
  );
});

/** What the page says of the strategies against one another, each claim held to the rows. */
function STATEMENTS(): void {
  const full = (s: string, b: BudgetName) => at(s, b).fullText.avg as number;
  const some = (s: string, b: BudgetName) => at(s, b).anyForm.avg as number;
  // The paper's Avg (Table 3) and the independent re-implementation's, as the page cites them.
  const PAPER = { tight: 0.2958, medium: 0.4441, roomy: 0.5106 };
  const REIMPLEMENTED = { tight: 0.236, medium: 0.421, roomy: 0.507 };
  // The same re-implementation indexing only the `*.py` files that are not tests: bm25-swe's choice.
  const PYTHON_ONLY = { tight: 0.336, medium: 0.521, roomy: 0.636 };
  // bm25's figures, which the page subtracts from bm25-swe's by name.
  const BM25 = { tight: 0.2429, medium: 0.4143, roomy: 0.5071 };
  const others = REPORT_STRATEGIES.filter((s) => s !== 'oracle');
  for (const b of BUDGETS) {
    expect(full('bm25', b), b).toBeLessThan(PAPER[b]);
    expect(Math.abs(full('bm25', b) - REIMPLEMENTED[b]), b).toBeLessThanOrEqual(0.01);
    expect(full('bm25', b), b).toBeCloseTo(BM25[b], 4);
    // The stronger baseline: what SWE-bench's code indexes, above bm25 by McNemar's test, and
    // above the paper's Avg.
    expect(Math.abs(full('bm25-swe', b) - PYTHON_ONLY[b]), b).toBeLessThanOrEqual(0.015);
    expect(full('bm25-swe', b), b).toBeGreaterThan(PAPER[b]);
    expect(mcnemarP('bm25-swe', 'bm25', b), b).toBeLessThan(0.001);
    expect(full('topk', b), b).toBeGreaterThan(full('bm25-swe', b));
    // The reference compiler: above bm25, below bm25-swe, within chance of it.
    expect(full('compiler', b), b).toBeLessThan(full('bm25-swe', b));
    expect(mcnemarP('compiler', 'bm25-swe', b), b).toBeGreaterThan(0.5);
    for (const s of others) expect(full(s, b), `${s} ${b}`).toBeLessThanOrEqual(full('oracle', b));
    expect(full('topk', b), b).toBeGreaterThan(full('bm25', b));
    expect(full('compiler', b), b).toBeGreaterThan(full('bm25', b));
    expect(some('compiler', b), b).toBeGreaterThan(full('compiler', b));
    for (const s of ['tiered', 'tiered-recall', 'tiered-task'])
      expect(full(s, b), `${s} ${b}`).toBeLessThan(full('bm25', b));
    for (const s of ['compiler-v2', 'exact'])
      expect(full(s, b), `${s} ${b}`).toBeGreaterThan(full('bm25-swe', b));
    expect(full('aider-repomap', b), b).toBe(0);
    expect(some('langchain-trim', b), b).toBe(0);
  }
  for (const s of ['compiler-v2', 'exact'])
    for (const o of others.filter((x) => x !== 'cheapest-form' && x !== 'compiler-v2' && x !== 'exact'))
      expect(some(s, 'tight'), `${s} over ${o}`).toBeGreaterThan(some(o, 'tight'));
  // The p-values the page quotes, to the places it writes them.
  const quoted = (a: string, b: string, ps: readonly number[], digits: number) =>
    BUDGETS.forEach((budget, k) => {
      expect(mcnemarP(a, b, budget), `${a} ${b} ${budget}`).toBeCloseTo(ps[k] as number, digits);
    });
  quoted('compiler-v2', 'bm25-swe', [0.82, 0.12, 0.14], 2);
  quoted('compiler', 'bm25-swe', [0.52, 0.86, 0.86], 2);
  expect(mcnemarP('topk', 'bm25-swe', 'medium')).toBeCloseTo(0.023, 3);
  for (const b of ['tight', 'roomy'] as const)
    expect(mcnemarP('topk', 'bm25-swe', b), b).toBeGreaterThan(0.05);
  HELD_OUT();
  const refused = rows.filter((r) => r.strategy === 'oracle' && r.budget === 'tight' && !r.success);
  expect(refused.length).toBeGreaterThan(0);
  for (const r of refused) expect(r.reason, r.case).toBe('INSUFFICIENT_BUDGET');
}

/** What the page says of the half of the instances the relevance model was not fitted on. */
function HELD_OUT(): void {
  const held = rows.filter((r) => heldOut(r.case));
  const of = (s: string, b: BudgetName) =>
    localizationOf(held.filter((r) => r.strategy === s && r.budget === b));
  const whole = (s: string, b: BudgetName) => of(s, b).held_full_text;
  for (const b of BUDGETS) {
    for (const s of ['bm25', 'priompt', 'prompt-tsx', 'langchain-trim'])
      expect(whole('compiler-v2', b), `${s} ${b}`).toBeGreaterThan(whole(s, b));
    // Against the stronger bm25, separated at no limit.
    expect(mcnemarP('compiler-v2', 'bm25-swe', b, heldOut), b).toBeGreaterThan(0.05);
    const v2 = held.filter((r) => r.strategy === 'compiler-v2' && r.budget === b);
    expect(v2.filter((r) => !r.success)).toEqual([]);
    expect(v2.filter((r) => r.audit?.legal !== true)).toEqual([]);
  }
  expect(whole('compiler-v2', 'tight')).toBeLessThan(whole('bm25-swe', 'tight'));
  expect(whole('compiler-v2', 'medium')).toBeGreaterThan(whole('bm25-swe', 'medium'));
  expect(whole('compiler-v2', 'roomy')).toBeGreaterThan(whole('bm25-swe', 'roomy'));
  const quotedHeld = [0.34, 1, 0.14];
  BUDGETS.forEach((b, k) => {
    expect(mcnemarP('compiler-v2', 'bm25-swe', b, heldOut), b).toBeCloseTo(quotedHeld[k] as number, 2);
  });
  expect(whole('compiler-v2', 'medium')).toBe(whole('langchain-reorder', 'medium'));
  expect(whole('compiler-v2', 'roomy')).toBeGreaterThan(whole('langchain-reorder', 'roomy'));
  expect(whole('compiler-v2', 'tight')).toBe(whole('langchain-reorder', 'tight') - 1);
  // The three instances where they differ at 13k, and the 159 items of one bundle.
  const tight = (s: string) =>
    new Map(held.filter((r) => r.strategy === s && r.budget === 'tight').map((r) => [r.case, r]));
  const [v2, reorder] = [tight('compiler-v2'), tight('langchain-reorder')];
  const differ = [...v2.keys()].filter(
    (c) => v2.get(c)?.measures?.must_sufficient_recall !== reorder.get(c)?.measures?.must_sufficient_recall,
  );
  expect(differ).toHaveLength(3);
  const lost = differ.filter((c) => v2.get(c)?.measures?.must_sufficient_recall === 0);
  expect(lost).toHaveLength(2);
  expect(Math.max(...lost.map((c) => v2.get(c)?.admitted.length ?? 0))).toBe(159);
  // In any form: more than in full text at 13k and 27k, the same at 50k.
  expect(of('compiler-v2', 'tight').anyForm.all as number).toBeGreaterThan(
    of('compiler-v2', 'tight').fullText.all as number,
  );
  expect(of('compiler-v2', 'medium').anyForm.all as number).toBeGreaterThan(
    of('compiler-v2', 'medium').fullText.all as number,
  );
  expect(of('compiler-v2', 'roomy').anyForm.all).toBe(of('compiler-v2', 'roomy').fullText.all);
  // Cautious where it matters: near at 13k, below what was held at 50k in either sense.
  const e = (b: BudgetName) => of('compiler-v2', b);
  expect(Math.abs((e('tight').expected_held as number) - e('tight').held_full_text)).toBeLessThan(1);
  expect(e('roomy').expected_held as number).toBeLessThan(e('roomy').held_full_text);
}
