/** The one place a strategy's input is built, and the one rule for who sees the ledger. */
import type { CompilerPolicy, ContextCandidate, ContextRequest } from '../../compiler/index.js';
import { requestAt } from '../corpus/index.js';
import type { Annotations, BudgetName, CaseLedger, CorpusCase, StrategyInput } from '../types.js';

/** Everything a compilation may be given; the ledger reaches only the strategies that read it. */
export interface Inputs {
  readonly request: ContextRequest;
  readonly candidates: readonly ContextCandidate[];
  readonly policy: CompilerPolicy;
  readonly ledger?: CaseLedger | undefined;
  readonly annotations?: Annotations | undefined;
  /** StrategyInput.anytime. */
  readonly anytime?: boolean | undefined;
}

/** The input a strategy sees: the ledger only when it declares that it reads it. */
export function strategyInput(
  strategy: { readonly readsLedger?: boolean | undefined },
  inputs: Inputs,
): StrategyInput {
  return {
    request: inputs.request,
    candidates: inputs.candidates,
    policy: inputs.policy,
    budget: inputs.request.usable_token_budget,
    annotations: inputs.annotations,
    ...(inputs.anytime === true ? { anytime: true } : {}),
    ...(strategy.readsLedger === true ? { ledger: inputs.ledger } : {}),
  };
}

/** The inputs of one case of a corpus at one budget. */
export const caseInputs = (
  kase: CorpusCase,
  budget: BudgetName | number,
  policy: CompilerPolicy,
  ledger: CaseLedger | undefined,
): Inputs => ({
  request: requestAt(kase, budget),
  candidates: kase.candidates,
  policy,
  ledger,
  annotations: kase.annotations,
});
