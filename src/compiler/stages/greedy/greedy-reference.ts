import type { GreedyClass, TraceDecision } from '../../compiler-types.js';
import type { CompileState } from '../../state.js';

type RankKey = readonly [number, number, number, string];

const rankBefore = (a: RankKey, b: RankKey): boolean => {
  for (let k = 0; k < 3; k++) {
    if ((a[k] as number) !== (b[k] as number)) return (a[k] as number) < (b[k] as number);
  }
  return a[3] < b[3];
};

/**
 * docs/compiler.md §10.6 as the reference runs it (the implementation `greedy-fast.ts` is tested
 * against): rounds of ranking every open unit of the band; the best is committed and the round
 * starts again. Rejections are terminal: the budget only shrinks and coverage only grows.
 * Relevance dominates coverage, which dominates cost.
 */
export function greedyReference(s: CompileState, band: GreedyClass): void {
  const tag = band === 'PREFERRED' ? 'preferred-greedy' : 'discretionary-greedy';
  const threshold = s.pool.policy.min_discretionary_relevance;
  for (;;) {
    let best: { key: RankKey; unit: string[] } | null = null;
    for (const unit of s.bandUnits(band)) {
      const unitIds = unit.map((m) => m.candidate_id);
      const { cost, nodes } = s.price(unitIds);
      const untraced = unit.filter((m) => !s.entries.has(m.candidate_id));
      const rejectAll = (decision: TraceDecision, code: string, detail: string) => {
        for (const m of untraced) s.reject(m, decision, code, detail, cost);
      };
      if (s.blockText(unitIds, nodes)) {
        rejectAll('REJECTED_DEPENDENCY', 'dependency-blocked', 'dependency ineligible or collides');
        continue;
      }
      const newCoverage = new Set(unit.flatMap((m) => m.coverage_keys).filter((k) => !s.covered.has(k))).size;
      const bestRelevance = Math.max(...unit.map((m) => m.relevance));
      if (cost > s.remaining) {
        rejectAll('REJECTED_BUDGET', 'budget', 'unit exceeds remaining budget');
        continue;
      }
      if (bestRelevance < threshold && newCoverage === 0) {
        rejectAll('REJECTED_REDUNDANT', 'no-earn', 'below relevance threshold with no new coverage');
        continue;
      }
      const key: RankKey = [-bestRelevance, -newCoverage, cost, unitIds[0] as string];
      if (best === null || rankBefore(key, best.key)) best = { key, unit: unitIds };
    }
    if (best === null) return;
    s.commit(s.price(best.unit), tag, best.unit);
  }
}
