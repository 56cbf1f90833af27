/**
 * report.html's charts: Vega-Lite specs built from rows alone, drawn to SVG text at build time
 * (render-svg.ts); an ingested corpus's page leads with one more (charts-found.ts).
 */
import type { TopLevelSpec } from 'vega-lite';
import { REQUIREMENT_CLASSES } from '../../compiler/index.js';
import { plural } from '../format.js';
import { budgetStats, columnOf, figuresOf, statsByStrategy } from '../metrics/index.js';
import type { Row, StrategyStats } from '../types.js';
import { BUDGETS, VIOLATION_KINDS } from '../vocabulary.js';
import { CORRECT_COLOUR, REFUSAL_COLOUR } from './grid.js';
import { renderSvg } from './render-svg.js';

/** A chart as the page shows it: an id for anchors and tests, a title, the SVG text. */
export interface Chart {
  readonly id: string;
  readonly title: string;
  readonly svg: string;
}

const BAR_STEP = 14;

/** Every word a chart shows is the catalogue's label of what it shows. */
const label = (name: string): string => columnOf(name).label;

/** The outcomes the first chart counts, in its order. */
const OUTCOMES = ['correct', 'refusals', 'errors'].map(label);

/** (1) Correct outcomes and refusals per strategy, each beside the strategy's row count. */
function outcomesSpec(names: readonly string[], stats: ReadonlyMap<string, StrategyStats>): TopLevelSpec {
  const values = names.flatMap((strategy) => {
    const s = stats.get(strategy) as StrategyStats;
    return [s.correct, s.refusals, s.errors].map((n, k) => ({ strategy, measure: OUTCOMES[k], n }));
  });
  return {
    data: { values },
    width: { step: BAR_STEP },
    height: 180,
    mark: { type: 'bar', tooltip: true },
    encoding: {
      x: { field: 'strategy', type: 'nominal', sort: [...names], axis: { labelAngle: -40 } },
      xOffset: { field: 'measure', sort: OUTCOMES },
      y: { field: 'n', type: 'quantitative', title: label('rows') },
      color: {
        field: 'measure',
        sort: OUTCOMES,
        scale: {
          domain: OUTCOMES,
          range: [CORRECT_COLOUR, REFUSAL_COLOUR, '#c62828'],
        },
        title: null,
      },
    },
  };
}

/** (2) Gate and structure violations by kind, stacked per strategy. */
function violationsSpec(names: readonly string[], stats: ReadonlyMap<string, StrategyStats>): TopLevelSpec {
  const values = names.flatMap((strategy) => {
    const v = (stats.get(strategy) as StrategyStats).violations;
    return VIOLATION_KINDS.map((kind) => ({ strategy, kind, n: v[kind] }));
  });
  return {
    data: { values },
    width: { step: BAR_STEP * 2 },
    height: 180,
    mark: { type: 'bar', tooltip: true },
    encoding: {
      x: { field: 'strategy', type: 'nominal', sort: [...names], axis: { labelAngle: -40 } },
      y: { field: 'n', type: 'quantitative', title: label('violations'), stack: 'zero' },
      color: {
        field: 'kind',
        sort: [...VIOLATION_KINDS],
        scale: { domain: [...VIOLATION_KINDS], scheme: 'tableau10' },
        title: label('violation_kind'),
      },
      order: { field: 'kind', sort: 'ascending', title: label('violation_kind') },
    },
  };
}

/**
 * (3) Must recall over every compilation (a refusal scores 0) and rendered tokens per strategy and
 * budget: a column per strategy, or, `across`, a row per strategy (an ingested corpus's page, so
 * that two dozen strategies fit the window).
 */
function recallTokensSpec(rows: readonly Row[], names: readonly string[], across = false): TopLevelSpec {
  const values = names.flatMap((strategy) => {
    const b = budgetStats(rows, strategy);
    return BUDGETS.map((budget) => ({
      strategy,
      budget,
      must_recall_all: b[budget].must_recall_all,
      rendered_tokens: b[budget].rendered_tokens,
    }));
  });
  const strategy = { field: 'strategy', type: 'nominal' as const, sort: [...names] };
  const budget = { field: 'budget', sort: [...BUDGETS] };
  const mark = { type: 'bar' as const, tooltip: true };
  const color = {
    field: 'budget',
    sort: [...BUDGETS],
    scale: { domain: [...BUDGETS], range: ['#e6550d', '#fdae6b', '#3182bd'] },
  };
  const panel = (field: string, first: boolean) => {
    const value = { field, type: 'quantitative' as const, title: label(field) };
    return across
      ? {
          width: 300,
          height: { step: 6 },
          mark,
          encoding: {
            y: { ...strategy, title: null, axis: first ? { labelLimit: 240 } : null },
            yOffset: budget,
            x: value,
            color,
          },
        }
      : {
          width: { step: BAR_STEP },
          height: 160,
          mark,
          encoding: { x: { ...strategy, axis: { labelAngle: -40 } }, xOffset: budget, y: value, color },
        };
  };
  return { data: { values }, hconcat: [panel('must_recall_all', true), panel('rendered_tokens', false)] };
}

/** The parts a composition bar stacks: the frame, then each requirement class. */
const PARTS = figuresOf('composition')
  .slice(1)
  .map((f) => f.label);

/**
 * (4) What the window is made of, as a context window is drawn in Letta: per strategy and budget,
 * the bundles' rendered tokens stacked by the frame and each requirement class. Null for a run
 * written before the measures.
 */
function compositionSpec(rows: readonly Row[], names: readonly string[]): TopLevelSpec | null {
  const values = names.flatMap((strategy) => {
    const b = budgetStats(rows, strategy);
    return BUDGETS.flatMap((budget) => {
      const c = b[budget].composition;
      if (c === null) return [];
      const tokens = [c.frame, ...REQUIREMENT_CLASSES.map((k) => c.classes[k])];
      return PARTS.map((part, k) => ({ strategy, budget, part, order: k, tokens: tokens[k] }));
    });
  });
  if (values.length === 0) return null;
  return {
    data: { values },
    height: { step: BAR_STEP / 1.5 },
    width: 420,
    mark: { type: 'bar', tooltip: true },
    encoding: {
      y: { field: 'strategy', type: 'nominal', sort: [...names], title: null },
      yOffset: { field: 'budget', sort: [...BUDGETS] },
      x: {
        field: 'tokens',
        type: 'quantitative',
        title: label('rendered_tokens'),
        stack: 'zero',
      },
      color: {
        field: 'part',
        sort: PARTS,
        scale: { domain: PARTS, scheme: 'tableau10' },
        title: label('held_by'),
      },
      order: { field: 'order' },
    },
  };
}

/**
 * The chart specs of a run's rows, in the page's order (the composition's only when the rows carry measures); the titles go in the page's
 * captions. With an x offset the width step is a single bar's, so wide runs stay readable. An
 * ingested corpus's page leaves out the outcomes where every compilation is correct and the
 * violations where there are none (what they would show is a row of equal bars, an empty axis),
 * and draws recall and tokens across (charts-found.ts).
 */
function chartSpecs(
  rows: readonly Row[],
  names: readonly string[],
  ingested: boolean,
): { id: string; title: string; spec: TopLevelSpec }[] {
  const stats = statsByStrategy(rows, names);
  const each = stats.get(names[0] ?? '')?.rows ?? 0;
  const composition = compositionSpec(rows, names);
  const all = [...stats.values()];
  const outcomes = !ingested || all.some((s) => s.correct < s.rows);
  const violations = !ingested || all.some((s) => VIOLATION_KINDS.some((k) => s.violations[k] > 0));
  return [
    ...(outcomes
      ? [
          {
            id: 'outcomes',
            title: `Correct outcomes and refusals per strategy (of ${each} ${plural(each, 'compilation')} each)`,
            spec: outcomesSpec(names, stats),
          },
        ]
      : []),
    ...(violations
      ? [
          {
            id: 'violations',
            title: 'Violations by kind per strategy (sums over its compilations)',
            spec: violationsSpec(names, stats),
          },
        ]
      : []),
    {
      id: 'recall-tokens',
      title: 'Must recall (mean, a refusal scores 0) and rendered tokens (sum) per strategy and budget',
      spec: recallTokensSpec(rows, names, ingested),
    },
    ...(composition === null
      ? []
      : [
          {
            id: 'composition',
            title:
              'Composition: rendered tokens by frame and requirement class, per strategy and budget (tight, medium, roomy from the top)',
            spec: composition,
          },
        ]),
  ];
}

/** Every chart of a run's rows, rendered; `names` the rows' strategies in their order. */
export async function renderCharts(
  rows: readonly Row[],
  names: readonly string[],
  ingested = false,
): Promise<Chart[]> {
  const out: Chart[] = [];
  for (const c of chartSpecs(rows, names, ingested))
    out.push({ id: c.id, title: c.title, svg: await renderSvg(c.spec) });
  return out;
}
