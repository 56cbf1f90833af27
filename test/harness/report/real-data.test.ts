/**
 * The self corpus (issue 21): reports/self-2026-12/ and docs/real-data.md against the committed
 * rows, everywhere; the corpus ingested again and compared by digest where the history up to the
 * pinned commit is here (a shallow clone has not got it: skipped, said why); and under
 * `npm run test:full` the whole study again, row for row.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FEATURES } from '../../../src/harness/ingest/relevance/relevance-features.js';
import { RELEVANCE_MODEL } from '../../../src/harness/ingest/relevance/relevance-model.js';
import model from '../../../src/harness/ingest/relevance/relevance-model.json' with { type: 'json' };
import { localizationOf, type PrefixStability } from '../../../src/harness/metrics/index.js';
import { renderFindings } from '../../../src/harness/report/index.js';
import { corpusDigest, readRunFolder } from '../../../src/harness/runfolder/index.js';
import { derivedFiles } from '../../../src/harness/runfolder/rows.js';
import type { BudgetName } from '../../../src/harness/types.js';
import { BUDGETS, SELF_CORPUS, selfCorpusArgs, selfStudyArgs } from '../../../src/harness/vocabulary.js';
import { cli } from '../../helpers/cli.js';
import { ROOT } from '../../helpers/corpus.js';
import { tempDir } from '../../helpers/temp.js';
import { FULL } from '../../helpers/tier.js';

const REPORTS = path.join(ROOT, 'reports', SELF_CORPUS.name);
const rows = readRunFolder(REPORTS).rows;
const committed = JSON.parse(fs.readFileSync(path.join(REPORTS, 'corpus.json'), 'utf8')) as {
  until: string;
  digest: string;
};

/** Whether this clone holds the history up to the pinned commit, not shallow. */
function historyHere(): string | null {
  const git = (...args: string[]) =>
    execFileSync('git', args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'ignore'] })
      .toString()
      .trim();
  try {
    if (git('rev-parse', '--is-shallow-repository') === 'true') return 'a shallow clone';
    git('cat-file', '-e', `${SELF_CORPUS.until}^{commit}`);
    return null;
  } catch {
    return `no commit ${SELF_CORPUS.until} here`;
  }
}
const missing = historyHere();

describe('reports/self-2026-12 and docs/real-data.md', () => {
  it('are what the code makes of the committed rows (npm run ingest:self regenerates them)', () => {
    expect(committed.until).toBe(SELF_CORPUS.until);
    // The run's compilations are not committed (hundreds of MB): prefix stability, which compares
    // their rendered texts, is taken as summary.json holds it; everything else is made again.
    const summary = JSON.parse(fs.readFileSync(path.join(REPORTS, 'summary.json'), 'utf8')) as {
      prefix_stability: Record<string, PrefixStability>;
    };
    const prefix = new Map(Object.entries(summary.prefix_stability));
    expect([...prefix.keys()]).toEqual([...new Set(rows.map((r) => r.strategy))]);
    for (const [name, text] of Object.entries(derivedFiles(rows, SELF_CORPUS.name, true, prefix)))
      expect(text, `reports/${SELF_CORPUS.name}/${name} drifted`).toBe(
        fs.readFileSync(path.join(REPORTS, name), 'utf8'),
      );
    const template = fs.readFileSync(path.join(ROOT, 'docs/real-data.template.md'), 'utf8');
    const self = { rows, compilations: [], purposes: new Map(), candidates: new Map() };
    expect(
      renderFindings(template, self, new Map([[SELF_CORPUS.name, self]])),
      'docs/real-data.md drifted',
    ).toBe(fs.readFileSync(path.join(ROOT, 'docs/real-data.md'), 'utf8'));
  });

  it('the page states the pinned commit, and the committed model: every weight, the floor, the out-of-fold calibration and ablation', () => {
    const page = fs.readFileSync(path.join(ROOT, 'docs/real-data.md'), 'utf8');
    expect(page).toContain(SELF_CORPUS.until);
    const signed = (x: number) => `${x < 0 ? '-' : '+'}${Math.abs(x).toFixed(3)}`;
    for (const [i, f] of RELEVANCE_MODEL.features.entries())
      expect(page, f).toContain(`| \`${f}\` | ${signed(RELEVANCE_MODEL.weights[i] as number)} |`);
    expect(FEATURES).toEqual(RELEVANCE_MODEL.features);
    expect(page).toContain(`floor is ${model.floor}`);
    const oof = model.calibration.out_of_fold['swe-bench'];
    for (const b of oof.bins.filter((b) => b.files > 0))
      expect(page).toContain(
        `| ${b.from} to ${b.to} | ${b.files.toLocaleString('en-US')} | ${(100 * b.predicted).toFixed(2)}% | ${(100 * b.observed).toFixed(2)}% |`,
      );
    expect(page).toContain(`the model expects ${oof.expected.toFixed(1)} needed files`);
    expect(page).toContain(`${oof.needed} needed)`);
    const pct = (x: number) => `${(100 * x).toFixed(1)}%`;
    for (const a of model.ablation)
      expect(page, a.variant).toContain(
        `| ${a.variant} | ${[...a.acc_at_1_3_5, ...a.topk_whole, ...a.greedy_whole, ...a.knapsack_whole].map(pct).join(' | ')} |`,
      );
  });

  it('the statements of the page hold on the committed rows', () => {
    const at = (strategy: string, budget: BudgetName) =>
      localizationOf(rows.filter((r) => r.strategy === strategy && r.budget === budget));
    const names = [...new Set(rows.map((r) => r.strategy))];
    const free = names.filter((n) => n !== 'oracle' && n !== 'cheapest-form');
    for (const b of BUDGETS) {
      const cheapest = at('cheapest-form', b);
      expect(cheapest.anyForm.all, b).toBe(1);
      // A path list finds every file by name and none whole.
      expect(cheapest.fullText.avg, b).toBe(0);
      expect(cheapest.file_precision as number, b).toBeLessThan(0.025);
      for (const n of ['compiler', 'compiler-strict', 'compiler-v2', 'exact'])
        expect(at(n, b).file_precision as number, `${b} ${n}`).toBeGreaterThan(
          cheapest.file_precision as number,
        );
    }
    const oracle = at('oracle', 'tight');
    expect(oracle.refusals).toBeGreaterThan(0);
    expect((oracle.anyForm.all as number) * oracle.expected).toBeCloseTo(
      oracle.expected - oracle.refusals,
      9,
    );
    const exact = at('exact', 'tight');
    for (const n of free.filter((x) => x !== 'exact' && x !== 'compiler-v2')) {
      expect(exact.anyForm.all as number, n).toBeGreaterThanOrEqual(at(n, 'tight').anyForm.all as number);
      expect(exact.anyForm.avg as number, n).toBeGreaterThan(at(n, 'tight').anyForm.avg as number);
    }
    expect(at('bm25', 'tight').anyForm.all).toBe(exact.anyForm.all);
    // Certified, compiler-v2 returns exact's bundle wherever the solver's earns more.
    expect(at('compiler-v2', 'tight').anyForm).toEqual(exact.anyForm);
    const precision = (n: string) => at(n, 'tight').file_precision as number;
    // Behind the gates they are the same on this corpus (every file passes every gate).
    const droppers = ['priompt', 'prompt-tsx', 'langchain-trim'];
    const them = droppers.flatMap((n) => [n, `${n}+gates`]);
    // A strategy that shows no file (tiered-task at tight) has no precision to compare.
    const shows = free.filter((x) => !them.includes(x) && typeof precision(x) === 'number');
    for (const peer of droppers)
      for (const n of shows) expect(precision(peer), `${peer} over ${n}`).toBeGreaterThan(precision(n));
    const tokens = (n: string, b: BudgetName) => at(n, b).mean_tokens as number;
    expect(tokens('priompt', 'tight')).toBeLessThan(tokens('compiler-v2', 'tight'));
    // compiler-v2 holds the changed files whole as often as any ledger-free strategy at medium and
    // roomy, and fills; at tight, bm25's ranking alone holds more.
    for (const b of BUDGETS) {
      const v2 = at('compiler-v2', b).fullText.avg as number;
      const above = free.filter((n) => (at(n, b).fullText.avg as number) > v2);
      expect(above, b).toEqual(b === 'tight' ? ['bm25', 'bm25-swe'] : []);
    }
    expect(tokens('compiler-v2', 'roomy')).toBeGreaterThan(0.95 * 64_000);
    // No budget more than half empty while a changed file is out (the rows cannot say whether it
    // would fit; this is the stronger rule), for the compilers ctxbench recommends; the reference's
    // repair leaves such cells, and the page counts them.
    const halfEmpty = (n: string) =>
      rows.filter(
        (r) =>
          r.strategy === n &&
          r.success &&
          (r.must_recall ?? 0) < 1 &&
          (r.budget_slack ?? 0) > r.budget_tokens / 2,
      ).length;
    expect(halfEmpty('compiler-v2')).toBe(0);
    expect(halfEmpty('exact')).toBe(0);
    expect(halfEmpty('compiler')).toBe(2);
    // The reference's greedy holds fewer whole than the optimum at the tight budget.
    expect(at('compiler', 'tight').fullText.avg as number).toBeLessThan(
      at('exact', 'tight').fullText.avg as number,
    );
    // Every cell of exact says whether it proved its answer; the page counts the unproven ones.
    for (const r of rows.filter((x) => x.strategy === 'exact'))
      expect(typeof r.extras.proven_optimal, `${r.case}/${r.budget}`).toBe('boolean');
    // trimMessages, handed the least relevant first, keeps what priompt keeps.
    for (const b of BUDGETS)
      expect(at('langchain-trim', b).fullText.all, b).toBe(at('priompt', b).fullText.all);
  });

  // A drift check of a committed corpus: the full tier's (test/helpers/tier.ts).
  it.skipIf(missing !== null || !FULL)(
    `ingesting the history again makes the same corpus${missing !== null ? ` (skipped: ${missing})` : FULL ? '' : ' (skipped: needs npm run test:full)'}`,
    async () => {
      const out = path.join(tempDir('self-corpus'), SELF_CORPUS.name);
      const made = await cli('ingest', ROOT, '--out', out, '--quiet', ...selfCorpusArgs());
      expect(made.code, made.stderr).toBe(0);
      expect(corpusDigest(out)).toBe(committed.digest);
      // The whole study again: every row, byte for byte.
      const again = path.join(path.dirname(out), 'run');
      expect((await cli('study', '--corpus', out, '--out', again, '--quiet', ...selfStudyArgs())).code).toBe(
        0,
      );
      expect(fs.readFileSync(path.join(again, 'rows.jsonl'), 'utf8')).toBe(
        fs.readFileSync(path.join(REPORTS, 'rows.jsonl'), 'utf8'),
      );
    },
  );
});
