import { describe, expect, it } from 'vitest';
import { strategyStats } from '../../../src/harness/metrics/index.js';
import { FindingsError, renderFindings } from '../../../src/harness/report/index.js';
import type { Row } from '../../../src/harness/types.js';
import { cand, each, findingsRun, pool, study, sum } from '../../helpers/corpus-v2.js';

describe('renderFindings on the corpus-v2 run', () => {
  it('a placeholder naming nothing in the run is an error, not a blank', async () => {
    const run = findingsRun(await study);
    expect(renderFindings('{authority-tempted/tight/topk.authority_violations}', run)).toMatch(/^\d+$/);
    for (const bad of [
      '{authority-tempted/tight/nobody.must_recall}',
      '{authority-tempted/tight/topk.no_such_metric}',
      '{no-case/*/*.refused}',
      '{{purpose no-case}}',
      '{{decision authority-tempted tight compiler no-candidate}}',
      '{{unknown}}',
      '{authority-tempted/*/topk.admitted}',
      '{*/*/compiler.must_recall}',
      '{authority-tempted/tight/ topk.must_recall}',
      '{{outcomes authority-tempted must_recall,}}',
      '{{outcomes authority-tempted admitted}}',
      '{{refusal authority-tempted tight compiler}}',
      '{{candidate authority-tempted inject-note no_field}}',
    ])
      expect(() => renderFindings(bad, run), bad).toThrow(/findings: line 1: /);
    expect(() => renderFindings('ok\n\n{{unknown}}', run)).toThrow(/line 3/);
  });

  it('braces that are not placeholders stay, and a filled-in text is not read again', async () => {
    const base = findingsRun(await study);
    const json = '`{"success": true}` and {return}';
    expect(renderFindings(json, base)).toBe(json);
    const purposes = new Map([['authority-tempted', 'says {authority-tempted/tight/topk.must_recall}']]);
    expect(renderFindings('{{purpose authority-tempted}}', { ...base, purposes })).toBe(
      'says {authority-tempted/tight/topk.must_recall}',
    );
  });

  it('a candidate cost is the declared tokens of it and all it depends on, each once', async () => {
    const run = findingsRun(await study);
    const ref = cand('relevance-buys-dearer', 'incident-ref');
    const deps = pool('relevance-buys-dearer').filter((c) => ref.depends_on.includes(c.candidate_id));
    expect(renderFindings('{{candidate relevance-buys-dearer incident-ref cost}}', run)).toBe(
      String(ref.token_count + deps.reduce((s, c) => s + c.token_count, 0)),
    );
  });

  it('a sum over budgets adds the rows, and a boolean counts its true rows', async () => {
    const run = findingsRun(await study);
    const topk = await each('authority-tempted', 'topk');
    expect(renderFindings('{authority-tempted/*/topk.authority_violations}', run)).toBe(
      String(sum(topk, (r) => r.authority_violations)),
    );
    expect(renderFindings('{*/*/compiler.refused}', run)).toBe(
      String((await study).filter((r) => r.strategy === 'compiler' && !r.success).length),
    );
  });
});

describe('renderFindings with named runs: {RUN:...}, {{stat}} and {{table}}', () => {
  /** The main run, and a second made of its tight rows alone: a figure read off the wrong one shows. */
  const runs = async () => {
    const all = await study;
    const tight = all.filter((r) => r.budget === 'tight');
    const main = findingsRun(all);
    const named = new Map([
      ['main', main],
      ['tight-only', findingsRun(tight)],
    ]);
    return { all, tight, main, named };
  };
  const of = (rows: readonly Row[], strategy: string, budget?: string) =>
    rows.filter((r) => r.strategy === strategy && (budget === undefined || r.budget === budget));
  /** Written here, not by the code under test: counts with thousands separators, scores to four places. */
  const count = (n: number) => String(n).replace(/\B(?=(\d{3})+$)/g, ',');
  const score = (n: number | null) => (n === null ? '-' : n.toFixed(4));

  it('{RUN:CASE/BUDGET/STRATEGY.metric} reads the run it names; without a name, the main one', async () => {
    const { all, tight, main, named } = await runs();
    const tokens = (rows: readonly Row[]) => sum(of(rows, 'compiler'), (r) => r.rendered_tokens);
    expect(tokens(tight)).not.toBe(tokens(all));
    expect(renderFindings('{tight-only:*/*/compiler.rendered_tokens}', main, named)).toBe(
      count(tokens(tight)),
    );
    expect(renderFindings('{*/*/compiler.rendered_tokens}', main, named)).toBe(count(tokens(all)));
    expect(renderFindings('{main:*/*/compiler.rendered_tokens}', main, named)).toBe(count(tokens(all)));
    expect(renderFindings('{tight-only:*/*/compiler.compilations}', main, named)).toBe(
      String(of(tight, 'compiler').length),
    );
    expect(tokens(all)).toBeGreaterThanOrEqual(1000); // so the separator is tested
  });

  it('{{stat}} is the figure strategyStats gives over that run and budget, formatted by its kind', async () => {
    const { all, tight, main, named } = await runs();
    const must = (rows: readonly Row[]) => strategyStats(rows).must_recall_feasible;
    expect(must(of(tight, 'compiler'))).not.toBe(must(of(all, 'compiler')));
    expect(renderFindings('{{stat tight-only * compiler must_recall_feasible}}', main, named)).toBe(
      score(must(of(tight, 'compiler'))),
    );
    expect(renderFindings('{{stat main * compiler must_recall_feasible}}', main, named)).toBe(
      score(must(of(all, 'compiler'))),
    );
    // a budget of the main run: the same rows as the tight-only run's
    expect(renderFindings('{{stat main tight compiler must_recall_feasible}}', main, named)).toBe(
      score(must(of(tight, 'compiler'))),
    );
    const tokens = strategyStats(of(all, 'compiler', 'medium')).rendered_tokens;
    expect(tokens).toBeGreaterThanOrEqual(1000);
    expect(renderFindings('{{stat main medium compiler rendered_tokens}}', main, named)).toBe(count(tokens));
    const illegal = of(all, 'aider-repomap').filter((r) => r.success && r.audit?.legal === false).length;
    expect(illegal).toBeGreaterThan(0);
    expect(renderFindings('{{stat main * aider-repomap illegal_bundles}}', main, named)).toBe(
      String(illegal),
    );
  });

  it('{{rate}} is a count among the compilations or bundles, with its 95% Wilson interval', async () => {
    const { all, main, named } = await runs();
    /** Wilson's score interval at z = 1.96, written here from its formula. */
    const wilson = (k: number, n: number) => {
      const z = 1.96;
      const p = k / n;
      const centre = (p + (z * z) / (2 * n)) / (1 + (z * z) / n);
      const half = (z * Math.sqrt((p * (1 - p)) / n + (z * z) / (4 * n * n))) / (1 + (z * z) / n);
      return [Math.max(0, centre - half), Math.min(1, centre + half)];
    };
    // Over budget counts among the bundles; correct among every compilation.
    const aider = of(all, 'aider-repomap');
    const bundles = aider.filter((r) => r.success).length;
    const over = aider.filter((r) => r.budget_compliant === false).length;
    const [lo, hi] = wilson(over, bundles);
    expect(renderFindings('{{rate main * aider-repomap over_budget}}', main, named)).toBe(
      `${over} of ${bundles} (95% interval ${score(lo as number)} to ${score(hi as number)})`,
    );
    const compiler = of(all, 'compiler');
    const correct = compiler.filter((r) => r.status_correct === true).length;
    const [clo, chi] = wilson(correct, compiler.length);
    expect(renderFindings('{{rate main * compiler correct}}', main, named)).toBe(
      `${correct} of ${compiler.length} (95% interval ${score(clo as number)} to ${score(chi as number)})`,
    );
    // A figure that is no rate (tokens) is an error with its line.
    expect(() => renderFindings('{{rate main * compiler rendered_tokens}}', main, named)).toThrow(
      /line 1: .*rendered_tokens is not a count of compilations among others/,
    );
  });

  it('{{table}} has a line per strategy in the order given, each cell computed from that run', async () => {
    const { tight, main, named } = await runs();
    const order = ['compiler-v2', 'aider-repomap', 'dump', 'compiler'];
    const text = renderFindings(
      `before\n{{table tight-only * ${order.join(',')} correct,over_budget,rendered_tokens}}\nafter`,
      main,
      named,
    );
    const lines = text.split('\n');
    expect(lines[0]).toBe('before');
    expect(lines.at(-1)).toBe('after');
    const table = lines.slice(1, -1);
    expect(table[0]).toBe('| strategy | correct | over budget | tokens |');
    expect(table).toHaveLength(2 + order.length);
    for (const [k, name] of order.entries()) {
      const mine = of(tight, name);
      const correct = mine.filter((r) => r.status_correct === true).length;
      const over = mine.filter((r) => r.budget_compliant === false).length;
      const tokens = sum(mine, (r) => r.rendered_tokens);
      expect(table[2 + k]).toBe(`| ${name} | ${count(correct)} | ${count(over)} | ${count(tokens)} |`);
    }
  });

  it('an unknown run, an unknown figure, a strategy with no rows or a wrong count of arguments is an error with its line', async () => {
    const { main, named } = await runs();
    for (const bad of [
      '{nobody:*/*/compiler.compilations}',
      '{{stat nobody * compiler correct}}',
      '{{table nobody * compiler correct}}',
      '{{stat main * compiler no_such_figure}}',
      '{{table main * compiler correct,no_such_figure}}',
      '{{stat main * nobody correct}}',
      '{{table main * compiler,nobody correct}}',
      // `*` is no strategy: a stat of nothing must not print 0
      '{{stat main * * correct}}',
      '{{table main * *,compiler correct}}',
      // compiler has rows in the main run at medium, none in the tight-only run
      '{{stat tight-only medium compiler correct}}',
      '{tight-only:*/medium/compiler.compilations}',
      '{{stat main * compiler}}',
      '{{stat main * compiler correct extra}}',
      '{{table main * compiler}}',
      '{{stat main * compiler,dump correct}}',
      '{{stat main * compiler correct,wrong}}',
    ]) {
      expect(() => renderFindings(`# t\n\nsee ${bad} here`, main, named), bad).toThrow(FindingsError);
      expect(() => renderFindings(`# t\n\nsee ${bad} here`, main, named), bad).toThrow(/^findings: line 3: /);
    }
    // the same placeholders are fine where they name what the runs hold
    expect(renderFindings('{{stat main medium compiler correct}}', main, named)).toMatch(/^\d+$/);
    expect(() => renderFindings('{{stat main * compiler correct}}', main, new Map())).toThrow(
      /line 1: .*"main"/,
    );
  });
});
