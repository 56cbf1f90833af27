/**
 * Every input the peers' tests run a strategy on: corpus v1 and v2, each case at each budget
 * (annotations included, no ledger), then generated `agent` pools of 200 candidates.
 */
import { generateCase } from '../../src/harness/generate/index.js';
import { caseInputs, strategyInput } from '../../src/harness/hosts/index.js';
import type { StrategyInput } from '../../src/harness/types.js';
import { BUDGETS } from '../../src/harness/vocabulary.js';
import { shippedCorpus } from './corpus.js';
import { inputAt } from './generated.js';

export interface Labelled {
  readonly label: string;
  readonly input: StrategyInput;
}

/** Corpus v1 and v2, every case at every budget, then `agent` pools of 200 at three budgets. */
export function referenceInputs(generated = 2): Labelled[] {
  const out: Labelled[] = [];
  for (const dir of ['compiler-v1', 'compiler-v2']) {
    const { corpus } = shippedCorpus(dir);
    for (const kase of corpus.cases)
      for (const budget of BUDGETS)
        out.push({
          label: `${dir}/${kase.name}/${budget}`,
          input: strategyInput({}, caseInputs(kase, budget, corpus.policy, undefined)),
        });
  }
  for (let k = 0; k < generated; k++) {
    const g = generateCase(`langchain-peers/${k}`, 200, 'generated', 'agent');
    for (const budget of BUDGETS) out.push({ label: `agent-200/${k}/${budget}`, input: inputAt(g, budget) });
  }
  return out;
}
