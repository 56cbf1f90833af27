/**
 * Peer `langchain-trim`: LangChain's `trimMessages` (@langchain/core 1.4.0,
 * dist/messages/transformers.js: `_trimMessagesHelper`, `_lastMaxTokens`, `_firstMaxTokens`) with
 * `strategy: "last"`, `includeSystem: true`, `startOn: "human"`, no partial messages, no `endOn`: the
 * options LangChain's reference documentation recommends for a history sent to a chat model.
 *
 * Why a port and not the call: `trimMessages` is async all the way down (every count is
 * awaited, even a synchronous counter's) and the package offers no synchronous path, while a
 * strategy's `assemble` must answer synchronously (src/harness/types.ts). So `trimLast` below is
 * the upstream `last` path line for line, synchronous; test/strategies/langchain-trim.test.ts
 * runs the real `trimMessages` beside it on every reference case, budget and random pools and
 * fails on any difference.
 *
 * The pool as a LangChain user writes the prompt (issue 36): the instructions are the system
 * message, the task is the last human message, and the documents and code go between, one message
 * each. `strategy: "last"` keeps the most recent messages and drops the oldest (the reference
 * documentation of trim_messages and trimMessages says to set it for exactly that), so a user
 * who trims retrieved documents with it puts the ones that matter where the recent ones are: by
 * relevance, the least relevant first and the most relevant next to the task (issue 51; ties by
 * id, reversed with the rest). A
 * message is the default forms of its contents: the system message every `instruction`-role
 * content (the policy's first role), the task message every `task`-role one. The token counter
 * gives the study's counts: the rendered cost of the messages' candidates (declared `token_count`
 * per item plus the kit's header, decoration and separator overhead).
 *
 * What survives is admitted and laid out in message order (`layout: 'own'`): the system message,
 * the documents kept, the task. `strategy: "last"` keeps the tail, so the task is the first
 * thing kept and the documents nearest it, the most relevant, come next. (Handed in as a
 * retriever returns them, most relevant first, the tail would keep the least relevant: the row
 * before issue 51, 0 on SWE-bench Lite in every form.)
 * trimMessages cannot express form floors or gates, required groups, dependencies, required ids:
 * it ignores them all, and keeps a contiguous tail of the conversation (it stops at the first
 * message that does not fit, it never skips one).
 */
import {
  baselineAnswer,
  type ContextCandidate,
  costOf,
  defaultFormPool,
  orderByRole,
  rankBy,
  renderedIncrement,
  type Strategy,
  type StrategyInput,
} from '../src/harness/kit/index.js';

export interface TrimLastOptions<M> {
  readonly maxTokens: number;
  /** Counts a list of messages, as trimMessages' `tokenCounter` does. */
  readonly tokenCounter: (messages: readonly M[]) => number;
  readonly includeSystem: boolean;
  readonly isSystem: (message: M) => boolean;
  /** `startOn`: the kept tail starts at the first message this accepts (a human one), or is empty. */
  readonly startOn?: (message: M) => boolean;
}

/**
 * Upstream `_firstMaxTokens` without partial messages: the longest prefix that counts within,
 * then, with `endOn` (which `_lastMaxTokens` passes its `startOn` as), cut back to the last
 * message that it accepts.
 */
function firstMaxTokens<M>(messages: readonly M[], o: TrimLastOptions<M>): M[] {
  let idx = 0;
  for (let i = 0; i < messages.length; i += 1) {
    if (o.tokenCounter(i > 0 ? messages.slice(0, -i) : messages) <= o.maxTokens) {
      idx = messages.length - i;
      break;
    }
  }
  while (o.startOn !== undefined && idx > 0 && !o.startOn(messages[idx - 1] as M)) idx -= 1;
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

/** A message: the default forms of one or more contents. */
export type Message = readonly ContextCandidate[];

/**
 * The pool as messages: the system message (the policy's first role, when it has contents), each
 * other content by relevance, the least relevant first (rankBy's order reversed), then the task
 * message (the `task` role).
 */
export function messagesOf(candidates: readonly ContextCandidate[], roles: readonly string[]): Message[] {
  const pool = defaultFormPool(candidates);
  const system = pool.filter((c) => roles.length > 0 && c.order_role === roles[0]);
  const task = pool.filter((c) => c.order_role === 'task' && !system.includes(c));
  const documents = rankBy(
    pool.filter((c) => !system.includes(c) && !task.includes(c)),
    (c) => c.relevance,
  ).reverse();
  return [
    ...(system.length > 0 ? [orderByRole(system, roles)] : []),
    ...documents.map((c) => [c]),
    ...(task.length > 0 ? [orderByRole(task, roles)] : []),
  ];
}

/**
 * The study's count of a list of messages, `costOf` of their candidates, for lists that share a
 * start: trimLast asks for one list cut shorter and shorter, a pool's thousands of documents, and
 * pricing each list whole was most of a SWE-bench cell. The rendered cost is the header plus each
 * item's increment, so the running sums of the last list asked are kept, and a list that begins
 * with the same messages is priced only past them.
 */
export function runningCost(input: StrategyInput): (messages: readonly Message[]) => number {
  const known: Message[] = [];
  const sums = [costOf([], input)];
  const items = [0];
  return (messages) => {
    let k = 0;
    while (k < messages.length && k < known.length && messages[k] === known[k]) k++;
    known.length = k;
    for (let j = k; j < messages.length; j++) {
      const m = messages[j] as Message;
      let sum = sums[j] as number;
      let n = items[j] as number;
      for (const c of m) sum += renderedIncrement(c, n++, input.policy);
      known.push(m);
      sums[j + 1] = sum;
      items[j + 1] = n;
    }
    return sums[messages.length] as number;
  };
}

const langchainTrim: Strategy = {
  name: 'langchain-trim',
  description:
    'LangChain trimMessages (strategy last, includeSystem, startOn human): system instructions, retrieved documents least relevant first, the task last',
  assemble(input) {
    const roles = input.policy.order_roles;
    const messages = messagesOf(input.candidates, roles);
    const system = messages[0]?.[0]?.order_role === roles[0] && roles.length > 0 ? messages[0] : undefined;
    const kept = trimLast(messages, {
      maxTokens: input.budget,
      tokenCounter: runningCost(input),
      includeSystem: true,
      isSystem: (m) => m === system,
      // Every message but the system one is a human message.
      startOn: (m) => m !== system,
    });
    return baselineAnswer(input, messages.flat(), kept.flat(), 'langchain-trim-last', undefined, 'own');
  },
};

export default langchainTrim;
