import type { CompileState } from '../state.js';

/** docs/compiler.md §10.7: every candidate still without an entry is an alternative or did not fit. */
export function finalCloseOut(s: CompileState): void {
  for (const f of s.pool.facts) {
    if (f.entry !== undefined) continue;
    if (f.content.admitted) {
      s.rejectFact(
        f,
        'REJECTED_ALTERNATIVE',
        'alternative_selected',
        'another form of this content admitted',
        0,
      );
    } else {
      const { cost } = s.price([f.c.candidate_id]);
      s.rejectFact(f, 'REJECTED_BUDGET', 'budget', 'no remaining budget path admits this record', cost);
    }
  }
}
