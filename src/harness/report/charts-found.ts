/**
 * The lead chart of an ingested corpus's page (a repository's history, SWE-bench instances), where
 * the question is whether the needed files are in the window: the share of instances whose bundle
 * holds every needed file, whole and in any form, by limit, a small panel per strategy with each
 * share's 95% Wilson interval, five panels to a row so that two dozen strategies fit a page 1,280
 * pixels wide.
 */
import type { TopLevelSpec } from 'vega-lite';
import { plural } from '../format.js';
import { localizationOf, wilson } from '../metrics/index.js';
import type { Row } from '../types.js';
import { BUDGETS, MAP_ONLY } from '../vocabulary.js';
import type { Chart } from './charts.js';
import { renderSvg } from './render-svg.js';

/** The two senses of "found", as the legend says them, and their colours. */
const SENSES = ['every needed file whole', 'every needed file in any form'] as const;
const SENSE_COLOURS = ['#2e7d32', '#1565c0'];

/** Panels a row of the small multiples holds: five, with their axes and headers, fit 1,280. */
const COLUMNS = 5;

/** A budget as the chart's axis says it: its tokens, the same for every case of an ingested corpus. */
function limitsOf(rows: readonly Row[]): Map<string, string> {
  return new Map(
    BUDGETS.map((b) => {
      const tokens = rows.find((r) => r.budget === b)?.budget_tokens;
      return [b, tokens === undefined ? b : `${Math.round(tokens / 1000)}k`];
    }),
  );
}

/** The lead chart: per strategy, the share of instances holding every needed file, by limit. */
export function foundSpec(rows: readonly Row[], names: readonly string[]): TopLevelSpec {
  const limits = limitsOf(rows);
  const values = names.flatMap((strategy) =>
    BUDGETS.flatMap((budget) => {
      const f = localizationOf(rows.filter((r) => r.strategy === strategy && r.budget === budget));
      const shares = [MAP_ONLY.includes(strategy) ? null : f.fullText.all, f.anyForm.all];
      return shares.flatMap((share, k) => {
        if (share === null) return [];
        const i = wilson(Math.round(share * f.expected), f.expected);
        return [{ strategy, limit: limits.get(budget), sense: SENSES[k], share, low: i.low, high: i.high }];
      });
    }),
  );
  const x = {
    field: 'limit',
    type: 'ordinal' as const,
    sort: [...limits.values()],
    title: null,
    axis: { labelAngle: 0 },
  };
  const y = {
    type: 'quantitative' as const,
    scale: { domain: [0, 1] },
    axis: { format: '%', tickCount: 5 },
    title: null,
  };
  const color = {
    field: 'sense',
    type: 'nominal' as const,
    sort: [...SENSES],
    scale: { domain: [...SENSES], range: SENSE_COLOURS },
    title: null,
    legend: { orient: 'top' as const, labelLimit: 320 },
  };
  // Where the two lines coincide (a bundle of whole files), the dashed one shows the other through.
  const dash = {
    field: 'sense',
    type: 'nominal' as const,
    sort: [...SENSES],
    scale: {
      domain: [...SENSES],
      range: [
        [1, 0],
        [5, 3],
      ],
    },
    legend: null,
  };
  return {
    data: { values },
    facet: { field: 'strategy', type: 'nominal', sort: [...names], title: null },
    columns: COLUMNS,
    spec: {
      width: 150,
      height: 90,
      layer: [
        {
          mark: { type: 'area', opacity: 0.15 },
          encoding: { x, y: { ...y, field: 'low' }, y2: { field: 'high' }, color },
        },
        {
          mark: { type: 'line', point: true, tooltip: true },
          encoding: { x, y: { ...y, field: 'share' }, color, strokeDash: dash },
        },
      ],
    },
  };
}

/** The lead chart, drawn. */
export async function renderFound(rows: readonly Row[], names: readonly string[]): Promise<Chart> {
  const cases = new Set(rows.map((r) => r.case)).size;
  return {
    id: 'found',
    title: `The share of the ${cases} ${plural(cases, 'case')} whose bundle holds every needed file, whole and in any form, by limit, per strategy (95% Wilson intervals)`,
    svg: await renderSvg(foundSpec(rows, names)),
  };
}
