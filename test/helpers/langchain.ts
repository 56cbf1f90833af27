/**
 * What the two LangChain peers' tests share: every reference input (corpus v1 and v2, each case at
 * each budget, and generated agent pools of 200 candidates), and the real, async `trimMessages`
 * run on the same pool as the strategy's synchronous port, so the two can be compared.
 */
import path from 'node:path';
import { HumanMessage, SystemMessage, trimMessages } from '@langchain/core/messages';
import type { ContextCandidate } from '../../src/compiler/index.js';
import { generateCase } from '../../src/harness/generate/case.js';
import { loadCorpus } from '../../src/harness/input/corpus.js';
import { costOf } from '../../src/harness/kit/index.js';
import { caseInputs, strategyInput } from '../../src/harness/run/input.js';
import type { StrategyInput } from '../../src/harness/types.js';
import { BUDGETS } from '../../src/harness/vocabulary.js';
import { messagesOf } from '../../strategies/langchain-trim.js';
import { ROOT } from './corpus.js';
import { inputAt } from './generated.js';

export interface Labelled {
  readonly label: string;
  readonly input: StrategyInput;
}

/** Corpus v1 and v2, every case at every budget, then `agent` pools of 200 at three budgets. */
export function referenceInputs(generated = 2): Labelled[] {
  const out: Labelled[] = [];
  for (const dir of ['compiler-v1', 'compiler-v2']) {
    const corpus = loadCorpus(path.join(ROOT, 'corpus', dir));
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

/**
 * The ids `trimMessages` itself keeps (strategy last, includeSystem) of the pool the strategy
 * lays out as messages, counted with the study's rendered cost. `undefined` entries (what
 * upstream returns when not even the system message fits) are kept, for the caller to see.
 */
export async function realTrim(input: StrategyInput): Promise<(string | undefined)[]> {
  const roles = input.policy.order_roles;
  const pool = messagesOf(input.candidates, roles);
  const byId = new Map<string, ContextCandidate>(pool.map((c) => [c.candidate_id, c]));
  const messages = pool.map((c, k) =>
    k === 0 && c.order_role === roles[0]
      ? new SystemMessage({ content: c.content, id: c.candidate_id })
      : new HumanMessage({ content: c.content, id: c.candidate_id }),
  );
  const kept = await trimMessages(messages, {
    maxTokens: input.budget,
    strategy: 'last',
    includeSystem: true,
    tokenCounter: (ms) =>
      costOf(
        ms.map((m) => byId.get(m.id ?? '') as ContextCandidate),
        input,
      ),
  });
  return kept.map((m) => (m as { id?: string } | undefined)?.id);
}
