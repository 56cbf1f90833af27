/**
 * `--tokenizer`, for the commands that compile under a policy: what prices the rendering overhead
 * (docs/compiler.md §17.7), and the options of the compile session such a command asks for (the
 * harness opens it). Apart from `command.ts` because it needs the compiler, which `--help` must
 * not load.
 */
import { type CompilerPolicy, OVERHEAD_TOKENIZERS, type OverheadTokenizer } from '../compiler/index.js';
import { UsageError } from '../harness/errors.js';
// Registers the real tokenizers, which `--tokenizer` may name.
import '../harness/corpus/index.js';
import type { CompileOptions } from '../harness/session/index.js';
import { lintOf, timeoutOf } from './command.js';
import type { Io } from './io.js';

// A string checked here, not yargs' `choices`: its complaint spans lines and the first one, all
// a one-line error keeps, does not say which option was wrong.
export const tokenizerOption = {
  type: 'string',
  describe:
    'what prices the header, decorations and separators: estimate, the reference setting (1.3 tokens a ' +
    "word), or o200k or cl100k, a real tokenizer, as an option beside it; sets the policy's overhead_tokenizer",
  defaultDescription: "the policy's overhead_tokenizer, estimate when it names none",
} as const;

/**
 * What `--tokenizer` does to a policy, its value checked at once: absent, nothing; `estimate`
 * leaves the field out, so the policy is the reference's record again.
 */
export function tokenizerSetting(tokenizer: string | undefined): (policy: CompilerPolicy) => CompilerPolicy {
  if (tokenizer === undefined) return (policy) => policy;
  if (!(OVERHEAD_TOKENIZERS as readonly string[]).includes(tokenizer))
    throw new UsageError(`--tokenizer must be ${OVERHEAD_TOKENIZERS.join(', ')}, not "${tokenizer}"`);
  return (policy) => {
    const { overhead_tokenizer: _replaced, ...rest } = policy;
    return tokenizer === 'estimate' ? rest : { ...rest, overhead_tokenizer: tokenizer as OverheadTokenizer };
  };
}

/** What a command that compiles reads from its options to open its session. */
interface SessionFlags {
  readonly strategy: string;
  readonly timeout: number;
  readonly budget?: number | undefined;
  readonly tokenizer?: string | undefined;
  readonly strict: boolean;
  readonly ledger?: string | undefined;
}

/** The compile session `--strategy`, `--timeout`, `--budget`, `--tokenizer`, `--strict` and `--ledger` ask for. */
export const sessionOptions = (a: SessionFlags, io: Io): CompileOptions => ({
  strategy: a.strategy,
  timeout: timeoutOf(a.timeout),
  budget: a.budget,
  policy: tokenizerSetting(a.tokenizer),
  lint: lintOf(a.strict, io),
  ledger: a.ledger,
});
