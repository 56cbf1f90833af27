/**
 * What the parent (hosts.ts) and a strategy's process (strategy-host.ts) say to each other over their
 * channel (channel.ts), and in which order. The process says once, before it is asked anything,
 * that its strategies loaded (`ready`, what each is, in the order of its files) or that one could
 * not (`broken`, and which); then, to each request, it sends its answer and nothing else. The strategy runs in that process and may write to the channel
 * itself, so the parent takes nothing on trust: any other message, or one out of this order, is
 * a breach that stops the process (`breach`).
 */
import type { CompilerPolicy, ContextCandidate, ContextRequest } from '../../compiler/index.js';
import { isPlainObject } from '../../compiler/index.js';
import type { Annotations, CaseLedger, StrategyInfo } from '../types.js';
import type { Answer } from './answer-rules.js';

/** The inputs shared by every budget of one case: sent once, kept until the next case. */
export interface SharedInputs {
  readonly candidates: readonly ContextCandidate[];
  readonly policy: CompilerPolicy;
  readonly annotations: Annotations | undefined;
}

/** Where a strategy process finds the tokenizer to load while it waits (HostOptions.counts). */
export const WARM_COUNTS_ENV = 'CTXBENCH_STRATEGY_COUNTS';

/** One compilation asked of a host. */
export interface HostRequest {
  readonly id: number;
  /** Which of the process's strategies, by the place of its file among the process's arguments. */
  readonly strategy: number;
  readonly shared?: SharedInputs | undefined;
  readonly request: ContextRequest;
  readonly ledger?: CaseLedger | undefined;
  /** StrategyInput.anytime, per compilation. */
  readonly anytime?: true | undefined;
}

/** Word that the strategies are loaded (or one, at `file`, could not be), then per request its answer. */
export type HostReply =
  | { readonly ready: readonly StrategyInfo[] }
  | { readonly broken: string; readonly file?: number }
  | { readonly id: number; readonly answer: Answer };

/** Where the parent stands with a process: what it may hear next. */
export type Expecting =
  | { readonly loading: true }
  | { readonly answerTo: number }
  /** Loaded and asked nothing: no message may come. */
  | { readonly idle: true };

/**
 * What a message is, in a few words whatever it holds. Request ids are not named: they count a
 * process's requests, which depend on the job count, and an error row must not.
 */
function kindOf(m: unknown, asked: number | undefined): string {
  if (!isPlainObject(m)) return 'something that is not a message';
  if ('ready' in m) return 'a ready message';
  if ('broken' in m) return 'a broken message';
  if ('answer' in m)
    return asked !== undefined && m.id === asked ? 'its answer' : 'an answer to a request it was not asked';
  return 'a message of no kind the protocol has';
}

/** Why a message breaks the protocol where the parent stands; null when it is the one expected. */
export function breach(m: unknown, at: Expecting): string | null {
  const kind = kindOf(m, 'answerTo' in at ? at.answerTo : undefined);
  if ('loading' in at)
    return kind === 'a ready message' || kind === 'a broken message' ? null : `${kind} before it had loaded`;
  if ('answerTo' in at) return kind === 'its answer' ? null : `${kind} where only its answer may come`;
  return `${kind} while it was asked nothing`;
}
