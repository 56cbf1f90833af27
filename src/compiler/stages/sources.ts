import { sortedUnique } from '../order.js';
import type { CompileState } from '../state.js';
import { refuse, type StageRefusal } from './refusal.js';

/**
 * The named ids that are not candidates at all, as the refusal they cause (docs/compiler.md
 * §10.1); null when every named id is a candidate. Exported so that any strategy refuses a
 * missing source in the compiler's words.
 */
export function missingSources(
  requiredIds: readonly string[],
  isCandidate: (id: string) => boolean,
): StageRefusal | null {
  const missing = sortedUnique(requiredIds.filter((id) => !isCandidate(id)));
  if (missing.length === 0) return null;
  return refuse(
    'REQUIRED_SOURCE_UNAVAILABLE',
    missing,
    `explicitly required candidates absent: ${missing.join(', ')}`,
  );
}

/** §10.1: runs before anything is traced, so the refusal's trace is empty. */
export const checkRequiredSources = (s: CompileState): StageRefusal | null =>
  missingSources(s.pool.request.required_ids, (id) => s.pool.has(id));
