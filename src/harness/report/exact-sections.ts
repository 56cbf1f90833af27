/**
 * The report's account against `exact`: for every refusal, whether a legal bundle existed (as
 * exact certifies), and per strategy its false refusals, its bundles that silently lack
 * MANDATORY or REQUIRED content, and its objective gap to the optimum. From rows alone.
 */

import { count, DIGITS, int, signed } from '../format.js';
import { againstExact, cellKey, exactRows, headersOf } from '../metrics/index.js';
import type { Row } from '../types.js';
import { STRATEGY_ERROR } from '../vocabulary.js';
import { markdownTable } from './table.js';

function verdict(exact: Row | undefined): string {
  if (exact === undefined || exact.reason === STRATEGY_ERROR) return 'unknown (no exact row)';
  if (exact.success) return `yes: exact found ${count(exact.rendered_tokens, 'token')}`;
  if (exact.reason === 'SEARCH_LIMIT') return 'unknown (search limit)';
  return `no: certified ${exact.reason}`;
}

/** One line per case and budget where anything refused, naming every strategy that did. */
function refusalLines(rows: readonly Row[], exactAt: ReadonlyMap<string, Row>): string[][] {
  const refused = new Map<string, Row[]>();
  for (const r of rows) {
    if (r.success || r.reason === STRATEGY_ERROR) continue;
    refused.set(cellKey(r), [...(refused.get(cellKey(r)) ?? []), r]);
  }
  return [...refused.values()].map((rs) => {
    const first = rs[0] as Row;
    const who = rs.map((r) => `${r.strategy} (${r.reason})`).join(', ');
    return [first.case, first.budget, who, verdict(exactAt.get(cellKey(first)))];
  });
}

/** One strategy against the optimum: its refusals, false refusals, holes and objective gaps. */
function againstLine(rows: readonly Row[], name: string, exactAt: ReadonlyMap<string, Row>): string[] {
  const a = againstExact(rows, name, exactAt);
  return [
    name,
    int(a.refusals),
    int(a.falseRefusals),
    int(a.incomplete),
    int(a.illegal),
    signed(a.gap.preferred, DIGITS.score),
    signed(a.gap.discretionary, DIGITS.score),
    signed(a.gap.tokens, DIGITS.mean),
    int(a.compared),
  ];
}

/** A table as rows of cells, for the Markdown report and the HTML page alike. */
export interface CellTable {
  readonly headers: readonly string[];
  readonly lines: readonly (readonly string[])[];
}

/** The exact sections' figures: the refusals and what exact certified there, and each strategy against the optimum. */
export function exactTables(
  rows: readonly Row[],
  names: readonly string[],
): { refusals: CellTable; against: CellTable; unproven: number; proven: number } {
  const exactAt = exactRows(rows);
  const provenRows = rows.filter((r) => r.strategy === 'exact' && r.success);
  return {
    refusals: { headers: headersOf('exact_refusals'), lines: refusalLines(rows, exactAt) },
    against: {
      headers: headersOf('exact_against'),
      lines: names.filter((n) => n !== 'exact').map((n) => againstLine(rows, n, exactAt)),
    },
    unproven: provenRows.filter((r) => r.extras.proven_optimal === false).length,
    proven: provenRows.length,
  };
}

/**
 * The exact sections' headings and prose, written once for report.md and report.html: `code` marks
 * an identifier, `num` writes a count (the page has always printed its counts raw: String).
 */
export function exactProse(
  t: { readonly unproven: number; readonly proven: number },
  code: (s: string) => string,
  num: (n: number) => string,
) {
  return {
    refusalsTitle: 'Refusals: did a legal bundle exist?',
    refusals:
      `For every case and budget where a strategy refused, what ${code('exact')} found there: a legal bundle (so the refusal was ` +
      'false), or a certificate that none exists.',
    againstTitle: `Against the optimum (${code('exact')})`,
    against:
      'False refusals: refused where exact found a legal bundle. Silent omissions: bundles lacking MANDATORY or REQUIRED ' +
      'content or a named id. Illegal: bundles breaking any legality rule. Gaps, where both returned a bundle: exact minus the ' +
      'strategy for earned PREFERRED and DISCRETIONARY relevance, the strategy minus exact for rendered tokens. ' +
      `Exact bundles not proven optimal (node limit): ${num(t.unproven)} of ${num(t.proven)}.`,
  };
}

export function exactSection(rows: readonly Row[], names: readonly string[]): string[] {
  const t = exactTables(rows, names);
  const p = exactProse(t, (s) => `\`${s}\``, int);
  return [
    `## ${p.refusalsTitle}\n\n${p.refusals}`,
    markdownTable(t.refusals.headers, t.refusals.lines),
    `## ${p.againstTitle}\n\n${p.against}`,
    markdownTable(t.against.headers, t.against.lines, [
      'left',
      ...t.against.headers.slice(1).map(() => 'right' as const),
    ]),
  ];
}
