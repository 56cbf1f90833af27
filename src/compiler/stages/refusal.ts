import type { FailureReason } from '../compiler-types.js';

/** A stage's refusal; the engine turns it into the failure record (docs/compiler.md §12). */
export interface StageRefusal {
  readonly reason: FailureReason;
  readonly blocking: readonly string[];
  readonly diagnostic: string;
}

export const refuse = (
  reason: FailureReason,
  blocking: readonly string[],
  diagnostic: string,
): StageRefusal => ({ reason, blocking, diagnostic });
