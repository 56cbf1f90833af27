import { describe, expect, it } from 'vitest';
import { deltaTable } from '../../../src/harness/compare/comparison-text.js';
import type { Comparison } from '../../../src/harness/compare/runs.js';
import { FIGURES, figuresOf, ROW_METRICS, TABLES } from '../../../src/harness/metrics/catalogue.js';
import { NO_METRICS, statsByStrategy } from '../../../src/harness/metrics/index.js';
import { headlineTable } from '../../../src/harness/report/index.js';
import { referenceStudy } from '../../helpers/study.js';

describe('the metric catalogue', () => {
  it('names every row metric once, in the order rows hold them', () => {
    expect(ROW_METRICS.map((m) => m.name)).toEqual(Object.keys(NO_METRICS));
  });

  it('gives each figure one name and one label, and every table names figures it holds', () => {
    const names = FIGURES.map((f) => f.name);
    expect(new Set(names).size).toBe(names.length);
    expect(new Set(FIGURES.map((f) => f.label)).size).toBe(FIGURES.length);
    for (const [table, list] of Object.entries(TABLES))
      for (const name of list) expect(names, `${table}: ${name}`).toContain(name);
  });

  it('the study headline and compare head a figure they share with the same words', () => {
    // Headers do not depend on the rows: an empty comparison and empty stats print them all.
    const compared = deltaTable({ headline: [] } as unknown as Comparison).headers;
    const headline = headlineTable(new Map()).headers.slice(1);
    expect(headline.length).toBeGreaterThan(5);
    for (const header of headline) expect(compared, header).toContain(header);
  });

  it('is what the headline prints: its labels, and each strategy’s figures read off its stats', async () => {
    const { rows } = await referenceStudy();
    const stats = statsByStrategy(rows);
    const t = headlineTable(stats);
    // No strategy of the reference study fails, so the errors column is left out.
    const shown = figuresOf('headline').filter((f) => f.name !== 'errors');
    expect(t.headers).toEqual(['strategy', ...shown.map((f) => f.label)]);
    const compiler = t.rows.find((r) => r[0] === 'compiler');
    const s = stats.get('compiler');
    expect(s).toBeDefined();
    expect(compiler?.slice(1)).toEqual(shown.map((f) => f.of(s as NonNullable<typeof s>)));
    // An independent count: the compiler's correct outcomes are its rows whose status is correct.
    const correct = rows.filter((r) => r.strategy === 'compiler' && r.status_correct === true).length;
    expect(compiler?.[1 + shown.findIndex((f) => f.name === 'correct')]).toBe(correct);
  });
});
