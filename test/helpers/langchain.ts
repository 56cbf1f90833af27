/**
 * The real, async `trimMessages` run on the same pool as the langchain-trim strategy's
 * synchronous port, so the two can be compared.
 */
import { HumanMessage, SystemMessage, trimMessages } from '@langchain/core/messages';
import type { ContextCandidate } from '../../src/compiler/index.js';
import { costOf } from '../../src/harness/kit/index.js';
import type { StrategyInput } from '../../src/harness/types.js';
import { messagesOf } from '../../strategies/langchain-trim.js';

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
