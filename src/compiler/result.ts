/** The two shapes of a CompilationResult (docs/compiler.md §2.6, §12, §13), built in one place. */

import type {
  CompilationResult,
  CompileFailure,
  CompilerPolicy,
  ContextBundle,
  ContextRequest,
  DecisionTrace,
  FailureReason,
} from './compiler-types.js';
import { SCHEMA } from './compiler-vocabulary.js';
import { sortedUnique } from './order.js';

/** What a refusal says; `blocking` is sorted and de-duplicated on the way in. */
export interface RefusalFacts {
  readonly reason: FailureReason;
  readonly blocking: readonly string[];
  readonly budgetUsed: number;
  readonly diagnostic: string;
}

export type RefusedResult = CompilationResult & { readonly success: false; readonly failure: CompileFailure };
export type BundleResult = CompilationResult & { readonly success: true; readonly failure: null };

export const refusedResult = (
  request: ContextRequest,
  policy: CompilerPolicy,
  trace: DecisionTrace,
  r: RefusalFacts,
): RefusedResult => ({
  schema_version: SCHEMA.resultV2,
  request_id: request.request_id,
  policy_version: policy.policy_version,
  success: false,
  bundle_id: null,
  bundle_tokens: null,
  bundle_hash: null,
  trace,
  failure: {
    schema_version: SCHEMA.failure,
    request_id: request.request_id,
    policy_version: policy.policy_version,
    reason: r.reason,
    blocking_ids: sortedUnique(r.blocking),
    budget_used: r.budgetUsed,
    budget_total: request.usable_token_budget,
    diagnostic: r.diagnostic,
  },
});

/** A bundle's result: its id, its rendered cost and its hash. */
export const bundleResult = (
  request: ContextRequest,
  policy: CompilerPolicy,
  trace: DecisionTrace,
  bundle: ContextBundle,
  renderedTokens: number,
  bundleHash: string,
): BundleResult => ({
  schema_version: SCHEMA.resultV2,
  request_id: request.request_id,
  policy_version: policy.policy_version,
  success: true,
  bundle_id: bundle.id,
  bundle_tokens: renderedTokens,
  bundle_hash: bundleHash,
  trace,
  failure: null,
});
