/**
 * Token costs (docs/compiler.md §3): the word-count estimate, the real tokenizers a caller may
 * register beside it, and the costs of the text the engine adds, priced by whichever the policy
 * names.
 */

import type {
  CompilerPolicy,
  ContextCandidate,
  ContextRequest,
  OverheadTokenizer,
} from './compiler-types.js';
import { OVERHEAD_TOKENIZERS, REAL_TOKENIZERS } from './compiler-vocabulary.js';
import { frameV2 } from './frame.js';
import { quote, RecordError } from './json.js';

/**
 * How many tokens a text is. It must be a pure function of the text: the compiler is one only
 * as long as its counters are.
 */
export type TokenCounter = (text: string) => number;

/** The tokenizers a caller registers; the estimate is the compiler's own and cannot be replaced. */
export type RealTokenizer = Exclude<OverheadTokenizer, 'estimate'>;

/** Python's `round()` to an integer: exact halves go to the even neighbour. */
export function roundHalfEven(x: number): number {
  const floor = Math.floor(x);
  const diff = x - floor; // exact for the magnitudes a word count can reach
  if (diff > 0.5) return floor + 1;
  if (diff < 0.5) return floor;
  return floor % 2 === 0 ? floor : floor + 1;
}

/**
 * The longest text a counter remembers. What it remembers for (headers, decorations, separators)
 * is far shorter; a text of a caller's own, or a request id of any length, is counted each time,
 * so that what a process keeps between compilations is bounded in bytes, not only in entries.
 */
const REMEMBERED_CHARS = 1024;

/** A counter that remembers: headers, decorations and separators repeat endlessly. */
function remembering(count: TokenCounter): TokenCounter {
  const known = new Map<string, number>();
  return (text) => {
    if (text.length > REMEMBERED_CHARS) return count(text);
    const seen = known.get(text);
    if (seen !== undefined) return seen;
    const tokens = count(text);
    // Bounded, so a pool of endless distinct kinds cannot grow it without end.
    if (known.size >= 4096) known.clear();
    known.set(text, tokens);
    return tokens;
  };
}

/**
 * The reference's word-count estimate: 1.3 tokens per whitespace-separated word, rounded half to
 * even, at least 1 for non-empty text. An approximation, not a tokenizer: the engine only uses it
 * for the header, decorations and separators; declared token counts are never re-estimated.
 */
export const estimateTokens_APPROX: TokenCounter = remembering((text) => {
  const words = text.split(/\s+/).filter((w) => w.length > 0).length;
  return words === 0 ? 0 : Math.max(1, roundHalfEven(words * 1.3));
});

const registered = new Map<string, TokenCounter>();

/**
 * Lets policies name a real tokenizer in `overhead_tokenizer` (docs/compiler.md §17.7). The
 * compiler imports nothing, so it ships none; ctxbench's harness registers gpt-tokenizer's. A
 * second registration of a name replaces the first.
 */
export function registerTokenCounter(name: RealTokenizer, count: TokenCounter): void {
  if (!(REAL_TOKENIZERS as readonly string[]).includes(name))
    throw new RecordError(
      `cannot register a token counter as ${quote(name)} (need ${REAL_TOKENIZERS.join(' or ')})`,
      'overhead_tokenizer',
    );
  registered.set(
    name,
    remembering((text) => {
      const tokens = count(text);
      // A budget compared with a fraction or a negative would be compared with nothing real.
      if (!Number.isSafeInteger(tokens) || tokens < 0)
        throw new RecordError(
          `the ${name} token counter returned ${quote(tokens)}, not a count`,
          'overhead_tokenizer',
        );
      return tokens;
    }),
  );
}

/**
 * The counter that prices what the engine adds under this policy. A name the vocabulary does not
 * know, or one nobody registered, throws: pricing with another counter would be a silent lie.
 */
export function overheadCounter(policy: Pick<CompilerPolicy, 'overhead_tokenizer'>): TokenCounter {
  const name = policy.overhead_tokenizer;
  if (name === undefined || name === 'estimate') return estimateTokens_APPROX;
  const counter = registered.get(name);
  if (counter !== undefined) return counter;
  if (!(OVERHEAD_TOKENIZERS as readonly string[]).includes(name))
    throw new RecordError(`unsupported overhead_tokenizer: ${quote(name)}`, 'overhead_tokenizer');
  throw new RecordError(
    `overhead_tokenizer ${quote(name)} has no token counter registered (registerTokenCounter)`,
    'overhead_tokenizer',
  );
}

export const TOKEN_PROVENANCE = 'approximation';
export const SEPARATOR = '\n---\n';

/** Between two neighbouring items; a v2 separator is priced as this one (§17.6). */
export const separatorCost = (policy: Pick<CompilerPolicy, 'overhead_tokenizer'>): number =>
  overheadCounter(policy)(SEPARATOR);

/**
 * Charged once per bundle although the text renderer never prints it (a reference quirk). Under
 * the v2 frame the frame's own lines are charged too, since the v1 frame was never priced.
 */
export function headerCost(request: ContextRequest, policy: CompilerPolicy): number {
  const count = overheadCounter(policy);
  return (
    count(`${request.request_id} ${request.task_id} ${policy.policy_version}`) +
    (policy.frame === 'v2' ? count(frameV2(`${request.request_id}-bundle`, 'TAG', 'N', [])) : 0)
  );
}

export const decorationCost = (
  c: ContextCandidate,
  policy: Pick<CompilerPolicy, 'overhead_tokenizer'>,
): number => overheadCounter(policy)(`${c.source_kind} ${c.kind}`);

/** What one item costs in a rendered bundle: its declared count plus its decoration. */
export const itemRenderCost = (
  c: ContextCandidate,
  policy: Pick<CompilerPolicy, 'overhead_tokenizer'>,
): number => c.token_count + decorationCost(c, policy);
