/**
 * The real, async `trimMessages` run on the same pool as the langchain-trim strategy's
 * synchronous port, so the two can be compared.
 */
import { HumanMessage, SystemMessage, trimMessages } from '@langchain/core/messages';
import { costOf } from '../../src/harness/kit/index.js';
import type { StrategyInput } from '../../src/harness/types.js';
import { type Message, messagesOf } from '../../strategies/langchain-trim.js';

/**
 * What LangChain's reference documentation tells a user passing a trimmed history to a chat model
 * to configure (langchain_core.messages.utils.trim_messages, and @langchain/core's
 * TrimMessagesFields): `strategy: "last"` to keep the recent messages, `includeSystem: true` to
 * keep the system message, `startOn: "human"` for a valid history; `allowPartial` at its default,
 * false. The strategy's port must decide as trimMessages does under exactly these.
 */
export const DOCUMENTED_TRIM = {
  strategy: 'last',
  includeSystem: true,
  startOn: 'human',
  allowPartial: false,
} as const;

/**
 * The ids `trimMessages` itself keeps (DOCUMENTED_TRIM) of the pool the strategy
 * lays out as messages, counted with the study's rendered cost. `undefined` entries (what
 * upstream returns when not even the system message fits) are kept, for the caller to see.
 */
export async function realTrim(input: StrategyInput): Promise<(string | undefined)[]> {
  const roles = input.policy.order_roles;
  const pool = messagesOf(input.candidates, roles);
  const byId = new Map<string, Message>(pool.map((m, k) => [`m${k}`, m]));
  const text = (m: Message) => m.map((c) => c.content).join('\n\n');
  const messages = pool.map((m, k) =>
    k === 0 && roles.length > 0 && m[0]?.order_role === roles[0]
      ? new SystemMessage({ content: text(m), id: `m${k}` })
      : new HumanMessage({ content: text(m), id: `m${k}` }),
  );
  const kept = await trimMessages(messages, {
    maxTokens: input.budget,
    ...DOCUMENTED_TRIM,
    tokenCounter: (ms) =>
      costOf(
        ms.flatMap((m) => byId.get(m.id ?? '') ?? []),
        input,
      ),
  });
  return kept.flatMap((m) => {
    const id = (m as { id?: string } | undefined)?.id;
    return id === undefined ? [undefined] : (byId.get(id) ?? []).map((c) => c.candidate_id);
  });
}
