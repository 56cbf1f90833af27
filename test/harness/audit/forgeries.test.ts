/**
 * The forgeries issues 19 and 33 found `validate` taking as valid, as single mutants of real
 * compilations of every strategy (refusals included): each class must be rejected every time,
 * and no honest compilation breaks a rule but `legal` and `budget`. The figures come from
 * `forgeryFigures` (test/helpers/forgeries.ts), printed with the seed.
 */
import { expect, it } from 'vitest';
import { runs } from '../../helpers/arbitrary.js';
import { counted, figureRow, n } from '../../helpers/figures.js';
import { FORGERIES, forgeryFigures } from '../../helpers/forgeries.js';

const SEED = 'validate-forgeries-1';

it(`every forgery of issues 19 and 33 is rejected (seed ${SEED})`, async () => {
  const figures = await forgeryFigures(SEED, runs(12, Number.POSITIVE_INFINITY));
  console.log(`validate forgeries (seed ${SEED}): ${JSON.stringify(figures)}`);
  expect(figures.broken).toEqual([]);
  // Refusals are among the bases, or the refusal classes would test nothing.
  expect(figures.refusals).toBeGreaterThan(10);
  for (const f of FORGERIES) {
    const c = figures.classes[f.name];
    expect(c?.escaped, f.name).toEqual([]);
    expect(c?.mutants ?? 0, f.name).toBeGreaterThanOrEqual(Math.min(12, 5));
  }
  const mutants = Object.values(figures.classes).reduce((s, c) => s + c.mutants, 0);
  figureRow(
    'forged compilations (issues 19 and 33)',
    'test/harness/audit/forgeries.test.ts',
    `${n(mutants)} forgeries of ${n(figures.bases)} real compilations (${n(figures.refusals)} of them refusals; seed \`${SEED}\`), all rejected: ${counted(Object.fromEntries(Object.entries(figures.classes).map(([k, c]) => [k, c.mutants])))}`,
  );
});
