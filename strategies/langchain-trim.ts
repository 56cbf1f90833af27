/**
 * Peer `langchain-trim`: LangChain's `trimMessages` (@langchain/core 1.4.0,
 * dist/messages/transformers.js: `_trimMessagesHelper`, `_lastMaxTokens`, `_firstMaxTokens`) with
 * `strategy: "last"`, `includeSystem: true`, no partial messages, no `startOn`/`endOn`.
 *
 * Why a port and not the call: `trimMessages` is async all the way down (every count is
 * awaited, even a synchronous counter's) and the package offers no synchronous path, while a
 * strategy's `assemble` must answer synchronously (src/harness/types.ts). So `trimLast` below is
 * the upstream `last` path line for line, synchronous; test/strategies/langchain-trim.test.ts
 * runs the real `trimMessages` beside it on every reference case, budget and random pools and
 * fails on any difference.
 *
 * The pool as messages: each content's default form (the baselines' pool) is one message, laid
 * out in the policy's role order (ties by id), the order the harness renders a bundle in. The
 * first message is the system message when its role is the policy's first role (instruction);
 * every other message is an ordinary turn. "Most recent" is therefore "latest in role order".
 * The token counter gives the study's counts: the rendered cost of the messages (declared
 * `token_count` per item plus the kit's header, decoration and separator overhead).
 *
 * What survives is admitted, in message order, which is the policy's order: the layout stays
 * the policy's. trimMessages cannot express form floors or gates, required groups, dependencies,
 * required ids or relevance: it ignores them all, and keeps a contiguous tail of the
 * conversation (it stops at the first message that does not fit, it never skips one).
 */
import {
  baselineAnswer,
  type ContextCandidate,
  costOf,
  defaultFormPool,
  orderByRole,
  type Strategy,
} from '../src/harness/kit/index.js';

export interface TrimLastOptions<M> {
  readonly maxTokens: number;
  /** Counts a list of messages, as trimMessages' `tokenCounter` does. */
  readonly tokenCounter: (messages: readonly M[]) => number;
  readonly includeSystem: boolean;
  readonly isSystem: (message: M) => boolean;
}

/** Upstream `_firstMaxTokens` without partial messages: the longest prefix that counts within. */
function firstMaxTokens<M>(messages: readonly M[], o: TrimLastOptions<M>): M[] {
  let idx = 0;
  for (let i = 0; i < messages.length; i += 1) {
    if (o.tokenCounter(i > 0 ? messages.slice(0, -i) : messages) <= o.maxTokens) {
      idx = messages.length - i;
      break;
    }
  }
  return messages.slice(0, idx);
}

/**
 * Upstream `_lastMaxTokens`: reverse (the system message held in front), take the longest prefix
 * that fits, reverse back. One departure: when not even the system message fits, upstream
 * returns `[undefined]` (it re-prepends `reversed_[0]` of an empty list); this returns `[]`.
 */
export function trimLast<M>(messages: readonly M[], o: TrimLastOptions<M>): M[] {
  const first = messages[0];
  const swappedSystem = o.includeSystem && first !== undefined && o.isSystem(first);
  const reversed = swappedSystem ? [first, ...messages.slice(1).reverse()] : [...messages].reverse();
  const kept = firstMaxTokens(reversed, o);
  if (!swappedSystem) return kept.reverse();
  const [system, ...rest] = kept;
  return system === undefined ? [] : [system, ...rest.reverse()];
}

/** The pool as trimMessages sees it: default forms in the policy's role order. */
export const messagesOf = (candidates: readonly ContextCandidate[], roles: readonly string[]) =>
  orderByRole(defaultFormPool(candidates), roles);

const langchainTrim: Strategy = {
  name: 'langchain-trim',
  description: 'LangChain trimMessages (strategy last, includeSystem) over default forms in role order',
  assemble(input) {
    const roles = input.policy.order_roles;
    const messages = messagesOf(input.candidates, roles);
    const kept = trimLast(messages, {
      maxTokens: input.budget,
      tokenCounter: (ms) => costOf(ms, input),
      includeSystem: true,
      isSystem: (m) => roles.length > 0 && m.order_role === roles[0],
    });
    return baselineAnswer(input, messages, kept, 'langchain-trim-last');
  },
};

export default langchainTrim;
